/* Lapau's service worker for the pages of one language (webapp/offline.py says why).
   Offline, the rules pages and the card galleries come from its cache, and every other
   page is the offline page; what is not a page read with GET goes to the network as if
   there were no worker.  The server fills in the next four lines. */
"use strict";
const CACHE = {{ cache | tojson }}; // this language's cache for this set of static files
const PREFIX = {{ prefix | tojson }}; // every cache of this language, old ones too
const OFFLINE = {{ offline | tojson }}; // the offline page
const KEPT = new Set({{ kept | tojson }}); // the pages read offline

// A static file's name carries its content's hash: a stored copy never goes stale.
const STATIC = "/static/";
const FILES = /\/static\/[^"'#?\s)]+/g;
const ANY_VARY = { ignoreVary: true }; // stored by URL alone, whatever the page varied on

self.addEventListener("install", (event) => {
  event.waitUntil(keepAll().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      const old = names.filter((name) => name.startsWith(PREFIX) && name !== CACHE);
      await Promise.all(old.map((name) => caches.delete(name)));
      // The page's request starts while the worker wakes up, not after.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })()
  );
});

// The kept pages and the offline page, then every static file they use.  If one is
// missing the worker is not installed, and the next visit tries again from the start.
async function keepAll() {
  const cache = await caches.open(CACHE);
  const pages = await Promise.all(
    [OFFLINE, ...KEPT].map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      await cache.put(url, response.clone());
      return response.text();
    })
  );
  const files = new Set(pages.join("").match(FILES));
  await Promise.all([...files].map((url) => keepFile(cache, url)));
}

async function keepFile(cache, url) {
  const earlier = await caches.match(url, ANY_VARY); // the same file, kept by an older version
  await (earlier ? cache.put(url, earlier) : cache.add(url));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC)) event.respondWith(file(request));
  else if (request.mode === "navigate") event.respondWith(page(event, url.pathname));
});

async function file(request) {
  const kept = await caches.match(request, ANY_VARY);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

// The network first; a kept page is stored afresh each time it is read online.
async function page(event, path) {
  try {
    const response = await network(event, KEPT.has(path));
    if (KEPT.has(path) && response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(path, copy)));
    }
    return response;
  } catch (offline) {
    const cache = await caches.open(CACHE);
    const kept = KEPT.has(path) ? await cache.match(path, ANY_VARY) : undefined;
    return kept || (await cache.match(OFFLINE, ANY_VARY)) || Response.error();
  }
}

// Going back, the browser takes a page from its own HTTP cache however old; a page
// that is never kept (a table, a room) is asked of the server instead.
async function network(event, kept) {
  const request = event.request;
  if (!kept && (request.cache === "force-cache" || request.cache === "only-if-cached")) {
    event.waitUntil(Promise.resolve(event.preloadResponse).catch(() => undefined)); // unused
    return fetch(request.url, { cache: "no-cache", redirect: "manual" });
  }
  return (await event.preloadResponse) || fetch(request);
}
