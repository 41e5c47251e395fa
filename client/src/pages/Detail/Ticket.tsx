import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { Product } from '@shared/product';
import { loginPath } from '@client/app/guard';
import { RulesSheet } from '@client/components/orders/RulesSheet';
import { useIsLoggedIn, useTradeMode } from '@client/state';
import { TicketForm } from './TicketForm';
import type { RepeatOrder } from './quick-ticket';
import './ticket.css';

function TicketFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [rulesOpen, setRulesOpen] = useState(false);
  const { mode } = useTradeMode();
  return (
    <section
      className={mode === 'practice' ? 'ticket ticket--practice' : 'ticket'}
      aria-labelledby="ticket-title"
      data-mode={mode}
    >
      <header className="ticket__head">
        <h2 id="ticket-title" className="ticket__title">
          {t('orders.ticket.heading')}
        </h2>
        <button
          type="button"
          className="ticket__link"
          data-testid="rules-link"
          aria-haspopup="dialog"
          onClick={() => setRulesOpen(true)}
        >
          {t('orders.ticket.rules')}
        </button>
      </header>
      {children}
      {rulesOpen && <RulesSheet onClose={() => setRulesOpen(false)} />}
    </section>
  );
}

function LoginPrompt() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="ticket__login" data-testid="ticket-login">
      <p>{t('orders.ticket.loginPrompt')}</p>
      <Link className="button" to={loginPath(location.pathname, location.search)}>
        {t('pages.login')}
      </Link>
    </div>
  );
}

/**
 * The order ticket under the chart: a login prompt for visitors, the ticket for users (its
 * working part docked at the bottom of the screen). The
 * product's REST record brings the duration ladder and the stake bounds; `tradable` is false
 * while the product is closed or under maintenance (live), which disables buying.
 */
export function Ticket({
  product,
  tradable,
  lastOrder = null,
  children,
}: {
  product: Product;
  tradable: boolean;
  lastOrder?: RepeatOrder | null;
  /** Under the ticket's in-page part (the positions strip). */
  children?: ReactNode;
}) {
  const loggedIn = useIsLoggedIn();
  return (
    <TicketFrame>
      {loggedIn ? (
        <TicketForm key={product.id} product={product} tradable={tradable} lastOrder={lastOrder}>
          {children}
        </TicketForm>
      ) : (
        <LoginPrompt />
      )}
    </TicketFrame>
  );
}
