/* Offline reading (webapp/offline.py): registers the service worker of the page's
   language once the page has loaded, so it never competes with the first paint. */
(function () {
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker
      .register(script.dataset.worker, { scope: script.dataset.scope })
      .catch(function () {}); // no storage (a private window, say): the site works as before
  });
})();
