// The scorekeeper's service worker: keeps the page and its assets so /score opens offline.
//
// Network first, so a connected phone always gets the current page; the cache answers only
// when the network does not. The API is never cached here: the page keeps the rule facts
// and the sheet in localStorage itself.

const CACHE = "hearts-score-v2";
const ASSETS = ["/score", "/static/score.js", "/static/scorer.js", "/static/download.js", "/static/score.css",
                "/static/score.webmanifest", "/static/score-icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

async function networkFirst(request, fallback) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && fallback === request.url) await cache.put(request, response.clone());
    return response;
  } catch (exc) {
    const cached = await cache.match(fallback, {ignoreSearch: true});
    if (cached) return cached;
    throw exc;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (event.request.mode === "navigate" && url.pathname.startsWith("/score")) {
    // every page of the scope is the one page, which reads its path itself
    event.respondWith(networkFirst(event.request, new URL("/score", self.location.origin).href));
  } else if (ASSETS.includes(url.pathname)) {
    event.respondWith(networkFirst(event.request, url.href));
  }
});
