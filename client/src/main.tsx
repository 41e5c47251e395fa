import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadPage } from '@client/app/App';
import { registerServiceWorker } from '@client/app/service-worker';
import { startTheme } from '@client/app/theme';
import { initI18n } from '@client/i18n';
// The boot path imports the state modules it needs, not state/index.ts: the queries' hooks and
// atoms stay in the page chunks that use them.
import { startQueryBridge } from '@client/state/query-bridge';
import { startPriceAlertNotices } from '@client/state/price-alerts';
import { startSession } from '@client/state/session';

// The stored or system theme goes on <html> before anything is drawn.
startTheme();

const root = createRoot(document.getElementById('root')!);

// The stored session goes to the api client and the socket before any page asks for data.
startSession();
// Socket events into the query cache (balances, orders, messages, reconnects).
startQueryBridge();
// A fired price alert is a notice on whatever page is open (state/price-alerts.ts).
startPriceAlertNotices();

// The page's chunk is fetched alongside the language files, not after them.
const page = preloadPage(window.location.hash || '#/');

// The language file is fetched before the first render so no untranslated key ever flashes;
// the first page's chunk too, so the first render draws the page itself, not a loading state
// that React would then hold for its fallback throttle (300 ms) before showing the page.
void Promise.all([
  initI18n().catch((err: unknown) => console.error('i18n failed to start', err)),
  page,
]).finally(() =>
  // A transition: React renders the first screen in slices and lets the browser breathe
  // between them (the boot screen stays until it is done), instead of one long task.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);

// The app shell offline (client/public/sw.js); production builds only, never the dev server.
if (import.meta.env.PROD) registerServiceWorker();
