/**
 * An init script for a journey's page: counts, per order id, how many times a result toast came
 * to show it (`window.__toasted`), watching the toast's `data-ids` as the page changes. A result
 * shown once per device reads 1, however many reconnections and replays there were.
 */
export const countResultToasts = `
  window.__toasted = {};
  let shown = new Set();
  const look = () => {
    const el = document.querySelector('[data-testid="result-toast"]');
    const now = new Set(el ? el.getAttribute('data-ids').split(' ') : []);
    for (const id of now) if (!shown.has(id)) window.__toasted[id] = (window.__toasted[id] ?? 0) + 1;
    shown = now;
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-ids'] });
`;
