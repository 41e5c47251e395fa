/**
 * Registers the service worker (client/public/sw.js) in production builds. The worker's URL
 * carries a build id (`sw.js?v=<id>`) hashed from the hashed asset names in index.html, so each
 * build is a new worker with its own cache, which installs and takes over on the next load
 * (skipWaiting + clients.claim in sw.js). The worker never touches /api/ or /socket.io/.
 */

/**
 * Paths of the entry script, its modulepreloads and the stylesheets index.html references, the
 * inlined one by the file it was built as (`<style data-href>`, client/vite.config.ts).
 */
export function shellAssetUrls(doc: Document): string[] {
  const nodes = doc.querySelectorAll<HTMLScriptElement | HTMLLinkElement | HTMLStyleElement>(
    'script[type="module"][src], link[rel="modulepreload"][href], link[rel="stylesheet"][href], style[data-href]',
  );
  return [...nodes].map((node) => {
    const url = 'src' in node ? node.src : 'href' in node ? node.href : (node.dataset.href ?? '');
    return new URL(url, location.href).pathname;
  });
}

/** A short, stable id for a set of asset URLs (FNV-1a, 32 bits, base 36); order does not count. */
export function buildIdFrom(urls: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const char of [...urls].sort().join('\n')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * index.html's own assets, read when this module is evaluated: before the entry's body runs and
 * before any dynamic import. Vite's preload helper later appends modulepreload and stylesheet
 * links for lazy chunks; read at the load event, they made the id depend on which chunks had
 * loaded by then, so one build could register as two versions and drop its own cache.
 */
const shellAtStart = typeof document === 'undefined' ? [] : shellAssetUrls(document);

/**
 * Only in production builds, on secure contexts (https, localhost); after the page has loaded,
 * so none of it competes with drawing the first screen (the resource entries it hands over are
 * buffered by the browser until then).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const sw = navigator.serviceWorker;
  const register = () => {
    const url = `${import.meta.env.BASE_URL}sw.js?v=${buildIdFrom(shellAtStart)}`;
    handOverAssets(sw);
    sw.register(url, { scope: import.meta.env.BASE_URL }).catch((err: unknown) =>
      console.warn('service worker not registered', err),
    );
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * Built assets (chunks, language files) that this page fetched without the worker, above all
 * before it took over, are handed to the worker to cache, whenever they finish loading: what
 * goes through the worker it caches itself (those have a workerStart).
 */
function handOverAssets(sw: ServiceWorkerContainer): void {
  if (typeof PerformanceObserver === 'undefined') return;
  const assets = new URL(`${import.meta.env.BASE_URL}assets/`, location.href).href;
  const pending = new Set<string>();
  let worker: ServiceWorker | null = null;
  const flush = () => {
    if (!worker || pending.size === 0) return;
    worker.postMessage({ type: 'cache', urls: [...pending] });
    pending.clear();
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      const { name, workerStart } = entry;
      if (workerStart === 0 && name.startsWith(assets) && !name.endsWith('.map')) pending.add(name);
    }
    flush();
  }).observe({ type: 'resource', buffered: true });
  void sw.ready.then((registration) => {
    worker = registration.active;
    flush();
  });
  sw.addEventListener('controllerchange', () => {
    worker = sw.controller ?? worker;
    flush();
  });
}
