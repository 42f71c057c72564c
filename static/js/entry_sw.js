/* The entry pages' service worker (served at /entry-sw.js by claim_views.service_worker).

   Network first, the last copy when the network is gone: a table's page or a referee's match page
   reloaded offline opens as it was last seen, with the site's scripts and styles, and the offline
   queue (deal_queue.js, IndexedDB) still holds the deals waiting to send. Nothing is written here:
   writes go only through the queue, to the server, which decides. Other pages are left alone. */
"use strict";

var CACHE = "entry-pages-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function entryPage(url) {
  return url.pathname.indexOf("/table/") === 0 || url.pathname.indexOf("/referee/matches/") === 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  var page = request.mode === "navigate" && entryPage(url);
  var asset = url.pathname.indexOf("/static/") === 0;
  if (!page && !asset) { return; }
  // a page is kept under its address without the query (?order=NE taps), so any reload finds it
  var key = page ? url.origin + url.pathname : request;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
      }
      return response;
    }).catch(function () {
      return caches.open(CACHE).then(function (cache) { return cache.match(key); }).then(function (found) {
        return found || new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
      });
    })
  );
});
