/* Revives a page's sockets after a sleep.  A phone that wakes (the page visible again, or
   back online) may hold a socket that died without a close: mobile Safari keeps one for
   minutes.  So each socket is probed then: a live one answers "probe" at once
   (webapp/sockets.py); one that does not within a few seconds, or one closed for good, is
   opened again by the htmx ws extension, and the server sends the whole state on every
   connect.  The extension itself stays as vendored; this only uses its events. */
(function () {
  var PROBE = "probe";
  var WAIT = 4000; // ms for the probe's answer: a slow mobile link, not a dead one
  var RETRIED = [1006, 1011, 1012, 1013]; // closes the extension reconnects after itself
  var links = []; // one per ws-connect element: its extension wrapper and current socket

  // Back off at most 8 s between attempts (the extension's default grows to a minute).
  htmx.config.wsReconnectDelay = function (retry) {
    return 1000 * Math.pow(2, Math.min(retry, 3)) * Math.random();
  };

  function linkOf(wrapper) {
    for (var i = 0; i < links.length; i++) if (links[i].wrapper === wrapper) return links[i];
    var link = { wrapper: wrapper, socket: null, heard: 0, code: 0 };
    links.push(link);
    return link;
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    var link = linkOf(event.detail.socketWrapper);
    link.socket = event.detail.event.target;
    link.heard = Date.now();
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var link = linkOf(event.detail.socketWrapper);
    if (event.detail.event.target === link.socket) link.code = event.detail.event.code;
  });
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    linkOf(event.detail.socketWrapper).heard = Date.now();
    if (event.detail.message === PROBE) event.preventDefault(); // nothing to swap
  });

  function reopen(link) {
    var socket = link.socket;
    link.socket = null; // until the new one opens: a second wake leaves it alone
    if (socket.readyState === WebSocket.OPEN) {
      socket.onclose = null; // its close may come in minutes: no second reconnect then
      socket.close();
    }
    link.wrapper.reconnect();
  }

  function probe(link) {
    var socket = link.socket;
    var asked = Date.now();
    socket.send(PROBE);
    setTimeout(function () {
      if (link.socket === socket && link.heard < asked) reopen(link);
    }, WAIT);
  }

  function wake() {
    if (document.visibilityState !== "visible") return;
    links.forEach(function (link) {
      var socket = link.socket;
      if (!socket || socket.readyState === WebSocket.CONNECTING) return;
      if (socket.readyState === WebSocket.OPEN) probe(link);
      else if (socket.readyState === WebSocket.CLOSED && RETRIED.indexOf(link.code) < 0) {
        reopen(link); // closed for good (say, dropped by the server as silent)
      }
    });
  }

  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
})();
