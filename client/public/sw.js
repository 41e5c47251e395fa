/*
 * The service worker (registered by client/src/app/service-worker.ts in production builds).
 *
 * - Caches the app shell: index.html as served for the scope root, the hashed assets it
 *   references, the manifest and its icons; lazily loaded chunks (pages, language files) are
 *   added when fetched, and the page hands over those it fetched before this worker took over.
 * - NEVER caches API answers (/api/), socket traffic (/socket.io/) or the operator console
 *   (/ops/, /ops.html, /ops-assets/): it does not even look at them, nor at anything else it does not know (health checks, metrics, other origins).
 * - Navigations go to the network first (so a new build is picked up at once) and fall back to
 *   the cached shell when the network is away; the app then says "network signal lost".
 * - Each build registers `sw.js?v=<build id>`: a new version installs, skips waiting, claims the
 *   open pages and deletes the caches of older versions.
 */
const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev';
const PREFIX = 'trade-shell-';
const CACHE = PREFIX + VERSION;
const SCOPE = self.registration.scope; // e.g. https://host/
const SHELL = SCOPE; // HashRouter: every screen is the scope root plus a hash
const ASSETS = new URL('assets/', SCOPE).pathname;
const STATIC = [
  'manifest.webmanifest',
  'icons/icon-192.png',
  'icons/icon-512.png',
  'icons/icon-maskable-192.png',
  'icons/icon-maskable-512.png',
  'icons/apple-touch-icon.png',
].map((file) => new URL(file, SCOPE).href);
const SHELL_PATHS = new Set([new URL(SHELL).pathname, new URL('index.html', SCOPE).pathname]);

/** Requests this worker leaves to the network untouched, whatever else is decided. */
function isNeverCached(url) {
  return (
    url.origin !== self.location.origin ||
    url.pathname.startsWith('/api/') ||
    url.pathname.startsWith('/socket.io/') ||
    // The operator console (/ops/, its chunks under /ops-assets/): staff pages, never kept here.
    url.pathname.startsWith('/ops')
  );
}

const isAsset = (url) => url.pathname.startsWith(ASSETS) && !url.pathname.endsWith('.map');

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const shell = await fetch(SHELL, { cache: 'no-cache' });
      if (!shell.ok) throw new Error(`app shell answered ${shell.status}`);
      const html = await shell.clone().text();
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
        .map((match) => new URL(match[1], SHELL))
        .filter((url) => !isNeverCached(url) && isAsset(url))
        .map((url) => url.href);
      await cache.addAll([...new Set([...assets, ...STATIC])]);
      await cache.put(SHELL, shell);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (isNeverCached(url)) return;
  if (request.mode === 'navigate') {
    if (SHELL_PATHS.has(url.pathname)) event.respondWith(navigate(request));
  } else if (isAsset(url)) {
    event.respondWith(cacheFirst(request, event));
  } else if (STATIC.includes(url.href)) {
    event.respondWith(networkFirst(request));
  }
});

/** The page asks for assets it fetched before this worker controlled it. */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'cache' || !Array.isArray(data.urls)) return;
  event.waitUntil(addAssets(data.urls));
});

async function navigate(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const cache = await caches.open(CACHE);
    const shell = await cache.match(SHELL);
    if (shell) return shell;
    throw err;
  }
}

/** Hashed file names never change content: the cache answers, the network fills it. */
async function cacheFirst(request, event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') {
    event.waitUntil(cache.put(request, response.clone()));
  }
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (err) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw err;
  }
}

async function addAssets(urls) {
  const cache = await caches.open(CACHE);
  for (const href of urls) {
    if (typeof href !== 'string') continue;
    const url = new URL(href, SCOPE);
    if (isNeverCached(url) || !isAsset(url) || (await cache.match(url.href))) continue;
    try {
      const response = await fetch(url.href);
      if (response.ok) await cache.put(url.href, response);
    } catch {
      // Offline already: it will be cached when next fetched.
    }
  }
}
