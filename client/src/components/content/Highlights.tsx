import { useTranslation } from 'react-i18next';
import type { Highlight } from '@shared/content/model';
import { highlightIcons } from './icons';

/** Home's platform highlights. */
export function Highlights({ items }: { items: Highlight[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section className="section" aria-labelledby="highlights-title">
      <div className="section__head">
        <h2 id="highlights-title">{t('content.home.highlights')}</h2>
      </div>
      <ul className="highlights" data-testid="highlights">
        {items.map((h) => (
          <li key={h.id} className="highlight">
            <span className="highlight__icon">
              {highlightIcons[h.icon] ?? highlightIcons.shield}
            </span>
            <strong className="highlight__title">{h.title}</strong>
            <span className="highlight__body">{h.body}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
