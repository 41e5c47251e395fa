import { useTranslation } from 'react-i18next';
import { showToast } from '@client/state';

/** Copies with the clipboard API, or the older selection command where that API is missing. */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  // Deprecated, but the only way on plain-HTTP pages, where navigator.clipboard is absent.
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** A copy button for one value; "copy succeeded" (seed spec §8) or how to copy by hand. */
export function CopyButton({
  text,
  label,
  testId,
  block = false,
}: {
  text: string;
  label: string;
  testId: string;
  /** Full width and a tap target of 44 px at least: the one action under an address. */
  block?: boolean;
}) {
  const { t } = useTranslation();
  const copy = () => {
    copyText(text).then(
      () => showToast(t('common.copySucceeded')),
      () => showToast(t('common.copyFailed')),
    );
  };
  return (
    <button
      type="button"
      className={
        block ? 'button button--secondary button--block' : 'button button--secondary button--small'
      }
      data-testid={testId}
      aria-label={label}
      onClick={copy}
    >
      {t('common.copy')}
    </button>
  );
}

/**
 * A label, a value the user types into their bank app, and its copy button; `shown` is how
 * the value reads on screen when that differs from what is copied (a grouped card number).
 */
export function CopyRow({
  label,
  value,
  shown = value,
  testId,
}: {
  label: string;
  value: string;
  shown?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="copy-row">
      <dt className="copy-row__label">{label}</dt>
      <dd className="copy-row__value">
        <span className="copy-row__text" data-testid={`${testId}-value`}>
          {shown}
        </span>
        <CopyButton text={value} testId={testId} label={t('wallet.copyLabel', { what: label })} />
      </dd>
    </div>
  );
}
