/* Lapau's only hand-written script, and the table works without it: it puts "your turn"
   in the tab title (and, if you ask, buzzes and beeps), keeps a clicked move form from
   being sent twice, makes the hand's cards buttons only when you may play one, brings
   the focus back to your move when the card you tapped has left the page, ticks the
   turn clock once a second, and opens on a wide screen the folds a phone keeps closed. */
(function () {
  var base = document.title;
  var moved = false;
  var wasMine = null;  // unknown until the first update: opening the page is no cue
  // The opt-in turn cue: a buzz where the phone can, and a short tone (no sound file).
  var cueKey = "lapau-turn-cue";
  function cueOn() {
    try { return localStorage.getItem(cueKey) === "1"; } catch (e) { return false; }
  }
  function showCue() {
    var button = document.getElementById("cue");
    if (!button) return;
    button.hidden = false;
    button.setAttribute("aria-pressed", cueOn() ? "true" : "false");
    button.addEventListener("click", function () {
      try { localStorage.setItem(cueKey, cueOn() ? "0" : "1"); } catch (e) { return; }
      button.setAttribute("aria-pressed", cueOn() ? "true" : "false");
    });
  }
  function cue() {
    if (!cueOn()) return;
    if (navigator.vibrate) navigator.vibrate(150);
    var Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return;
    try {
      var audio = new Audio();
      var tone = audio.createOscillator();
      var level = audio.createGain();
      tone.frequency.value = 660;
      level.gain.setValueAtTime(0.08, audio.currentTime);
      level.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      tone.connect(level).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
      tone.onended = function () { audio.close(); };
    } catch (e) { /* no sound on this browser: the buzz and the title still tell */ }
  }
  function refocus() {
    var active = document.activeElement;
    if (!moved || (active && active !== document.body && active.isConnected)) return;
    moved = false;
    var next = document.querySelector("#prompt button, #hand button:enabled:not([aria-disabled])")
      || document.getElementById("hand");
    if (next) next.focus({ preventScroll: true });
  }
  function update() {
    var status = document.getElementById("status");
    var mine = status && status.getAttribute("data-turn") === "1";
    var turn = status && status.querySelector(".turn");
    document.title = mine && turn ? "\u25CF " + turn.textContent + " \u00B7 " + base : base;
    // The hand's cards are buttons only at its step (the page's own render says so too).
    var cards = document.querySelector("#hand fieldset[data-step]");
    var phase = status && status.getAttribute("data-phase");
    if (cards) cards.disabled = !(mine && phase === cards.getAttribute("data-step"));
  }
  // The turn clock counts down in CSS without a script, but a CSS animation is drawn
  // sixty times a second for the whole turn (a tenth of a cheap phone's core, per open
  // table); here it ticks once a second instead. A new #status brings a new clock.
  var ticking = null;
  var tick = null;
  function clock() {
    var timer = document.querySelector("#status .timer");
    if (timer === ticking) return;
    clearInterval(tick);
    ticking = timer;
    if (!timer) return;
    var of = timer.classList.contains("clock-60") ? 60 : 30;
    var left = /(?:^| )left-(\d+)/.exec(timer.className);
    var ends = Date.now() + (left ? Number(left[1]) : of) * 1000;
    var count = timer.querySelector(".count");
    var bar = timer.querySelector(".bar");
    timer.classList.add("ticking");
    function show() {
      var seconds = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      if (count) count.textContent = seconds + "s";
      if (bar) bar.style.transform = "scaleX(" + seconds / of + ")";
      if (!seconds) clearInterval(tick);
    }
    show();
    tick = setInterval(show, 1000);
  }
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) form.classList.add("sent");
    moved = true;
  });
  function checkTurn() {
    // Read as each message lands (each is a task of its own), so a quick round of bots
    // between two of your turns still counts as a new turn.
    var status = document.getElementById("status");
    var mine = !!status && status.getAttribute("data-turn") === "1";
    if (mine && wasMine === false) cue();
    wasMine = mine;
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    checkTurn();
    // A form may outlive the move (only its cards change), so release every form.
    document.querySelectorAll("form.sent").forEach(function (f) { f.classList.remove("sent"); });
    setTimeout(update, 0);
    setTimeout(clock, 0);
    setTimeout(refocus, 0);
  });
  // Folds that a phone keeps closed open by themselves where the screen has room (they
  // sit outside the swapped fragments, so this runs once).
  function openWide() {
    if (!window.matchMedia("(min-width: 40rem)").matches) return;
    document.querySelectorAll("details[data-wide-open]").forEach(function (d) { d.open = true; });
  }
  document.addEventListener("DOMContentLoaded", function () { openWide(); showCue(); checkTurn(); update(); clock(); });
})();
