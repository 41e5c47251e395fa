import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppInfo, useIsLoggedIn, useUnreadCount } from '@client/state';
import { quickIcons } from './icons';
import { UnreadBadge } from './UnreadBadge';
import './content.css';
import { paths } from '@client/app/route-table';

type QuickName = Exclude<keyof typeof quickIcons, 'service'>;

/** Home's shortcuts, in the order of the spec's Home capabilities. */
const links: { name: QuickName; path: string }[] = [
  { name: 'deposit', path: paths.recharge },
  { name: 'trade', path: paths.product },
  { name: 'orders', path: paths.orders },
  { name: 'withdrawal', path: paths.account },
  { name: 'about', path: paths.aboutUs },
  { name: 'messages', path: paths.messages },
];

/** The messages shortcut's live badge: only for a signed-in user. */
function MessagesBadge() {
  const { t } = useTranslation();
  const count = useUnreadCount();
  return (
    <UnreadBadge
      count={count}
      label={t('content.messages.unreadCount', { count: count ?? 0 })}
      testId="messages-badge"
    />
  );
}

/**
 * Deposit, trade, my orders, withdrawal method, about us, messages (with the unread badge) and
 * online service, which opens app info's `serviceUrl` outside the app.
 */
export function QuickLinks() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const serviceUrl = useAppInfo()?.serviceUrl;
  return (
    <nav className="quick-links" aria-label={t('content.home.quickLinks')}>
      <ul>
        {links.map(({ name, path }) => (
          <li key={name}>
            <Link to={path} className="quick-link" data-testid={`quick-${name}`}>
              <span className="quick-link__icon">
                {quickIcons[name]}
                {name === 'messages' && loggedIn && <MessagesBadge />}
              </span>
              <span className="quick-link__label">{t(`content.home.quick.${name}`)}</span>
            </Link>
          </li>
        ))}
        <li>
          {serviceUrl ? (
            <a
              href={serviceUrl}
              target="_blank"
              rel="noopener"
              className="quick-link"
              data-testid="quick-service"
            >
              <span className="quick-link__icon">{quickIcons.service}</span>
              <span className="quick-link__label">
                {t('content.home.quick.service')}
                <span className="visually-hidden"> {t('content.home.newTab')}</span>
              </span>
            </a>
          ) : (
            <span className="quick-link quick-link--off" data-testid="quick-service">
              <span className="quick-link__icon">{quickIcons.service}</span>
              <span className="quick-link__label">{t('content.home.quick.service')}</span>
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
