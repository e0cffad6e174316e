/* Revives a page's sockets after a sleep.  A phone that wakes (the page visible again, or
   back online) may hold a socket that died without a close: mobile Safari keeps one for
   minutes.  So each socket is probed then: a live one answers "probe" at once
   (webapp/sockets.py); one that does not within a few seconds, or one the server dropped
   as silent while the phone slept, is opened again through the htmx ws extension, and the
   server sends the whole state on every connect.  The extension stays as vendored; this
   only listens to its events and calls its reconnect. */
(function () {
  var PROBE = "probe";
  var WAIT = 4000; // ms for the probe's answer: a slow mobile link, not a dead one
  var SILENT = 1008; // the server dropped the socket: the phone slept through its pings
  var BUSY = 4013; // refused for now (too many sockets): its notice says so; try later
  var LATER = 10000; // ms, and as much again at random, before a refused socket tries again
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
    var socket = event.detail.event.target;
    if (socket !== link.socket) return;
    link.code = event.detail.event.code;
    // The extension gives up on this code; the page tries again after a while, spread
    // out so that refused pages do not all come back at once.
    if (link.code === BUSY) {
      setTimeout(function () {
        if (link.socket === socket) reopen(link);
      }, LATER * (1 + Math.random()));
    }
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

  // Open but silent, or dropped as silent: ours to reopen.  After any other close the
  // extension reconnects by itself (or, after a normal close, rightly not at all).
  function dead(link, socket) {
    return socket.readyState === WebSocket.OPEN ||
      (socket.readyState === WebSocket.CLOSED && link.code === SILENT);
  }

  function probe(link) {
    var socket = link.socket;
    var asked = Date.now();
    socket.send(PROBE);
    setTimeout(function () {
      if (link.socket === socket && link.heard < asked && dead(link, socket)) reopen(link);
    }, WAIT);
  }

  function wake() {
    if (document.visibilityState !== "visible") return;
    links.forEach(function (link) {
      var socket = link.socket;
      if (!socket) return;
      if (socket.readyState === WebSocket.OPEN) probe(link);
      else if (dead(link, socket)) reopen(link);
    });
  }

  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
})();
