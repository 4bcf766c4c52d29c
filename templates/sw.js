// Tretten's service worker: Workbox from npm (app/web/routes/offline.py renders this template;
// docs/architecture.md, "Offline"). Pages: network first, the last copy offline. Styles and
// scripts: precached; an older hash of one (a page kept from before an update) gets the current
// one offline. The court figures and the offline engine: kept from the moment offline play is on.
importScripts("{{ workbox_sw }}");
workbox.setConfig({modulePathPrefix: "{{ workbox }}", debug: false});
workbox.core.setCacheNameDetails({prefix: "tretten"});
// an update waits for a calm moment, which the page names (static/js/offline.js): the player
// taps "New version: reload", or leaves the page. Never under a player's finger
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});
workbox.core.clientsClaim();
const OFFLINE = {{ files|safe }};
workbox.precaching.precacheAndRoute({{ precache|safe }});
workbox.precaching.cleanupOutdatedCaches();

const pages = new workbox.strategies.NetworkFirst({
  cacheName: "tretten-pages", networkTimeoutSeconds: 6, matchOptions: {ignoreVary: true},
  plugins: [new workbox.cacheableResponse.CacheableResponsePlugin({statuses: [200]}),
            new workbox.expiration.ExpirationPlugin({maxEntries: 40})]});
workbox.routing.registerRoute(({request}) => request.mode === "navigate", pages);
// a page not kept, asked for offline: a page of ours that says so (the browser's own error page
// said nothing of the pages that are kept), kept apart from the pages' copies (never expired), a
// copy per version
const FALLBACK = {cache: "{{ fallback }}", url: "/offline"};
workbox.routing.setCatchHandler(async ({request}) => {
  if (request.mode !== "navigate") return Response.error();
  return (await caches.match(FALLBACK.url, {cacheName: FALLBACK.cache, ignoreVary: true})) || Response.error();
});

const kept = new workbox.strategies.CacheFirst({cacheName: OFFLINE.cache, matchOptions: {ignoreVary: true}});
const keptUrls = new Set([...OFFLINE.art, ...OFFLINE.engine]);
workbox.routing.registerRoute(
  ({url}) => url.origin === location.origin && keptUrls.has(url.pathname + url.search), kept);

// a style or script under an older hash: the network, else whatever copy is kept
workbox.routing.registerRoute(({url}) => url.origin === location.origin && url.pathname.startsWith("/static/"),
  async ({request}) => {
    try { return await fetch(request); }
    catch (error) {
      const copy = await caches.match(request, {ignoreSearch: true, ignoreVary: true});
      if (copy) return copy;
      throw error;
    }
  });

self.addEventListener("install", (event) => {
  // the Static Routing API: this worker, asleep or busy, never stands between a tap and the
  // server. A move and every other POST, and the board's other requests, go straight to the
  // network; styles, scripts and images race the network (the browser's cache) against this
  // worker (its kept copies, offline); pages and the offline engine's bundle come through it.
  // Each route on its own: a browser that cannot read one keeps the others.
  if (event.addRoutes) {
    [{condition: {requestMethod: "POST"}, source: "network"},
     {condition: {urlPattern: {pathname: "/static/*"}}, source: "race-network-and-fetch-handler"},
     {condition: {not: {or: [{requestMode: "navigate"}, {urlPattern: {pathname: "/offline/*"}}]}},
      source: "network"},
    ].forEach((route) => event.addRoutes(route).catch(() => null));
  }
  // the page for pages not kept, in this version's words
  event.waitUntil(caches.open(FALLBACK.cache).then((cache) => cache.add(FALLBACK.url)).catch(() => undefined));
  // an update keeps offline play whole: when an older offline cache is there, fill the new one now
  event.waitUntil(caches.keys().then((names) => {
    if (!names.some((n) => n.startsWith("tretten-offline-") && n !== OFFLINE.cache)) return;
    return caches.open(OFFLINE.cache).then((cache) => cache.addAll([...OFFLINE.art, ...OFFLINE.engine]))
      .catch(() => undefined);
  }));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((n) => (n.startsWith("tretten-offline-") && n !== OFFLINE.cache) ||
                   (n.startsWith("tretten-fallback") && n !== FALLBACK.cache))
    .map((n) => caches.delete(n)))));
});
