/* Lapau's only hand-written script, and the table works without it: it puts "your turn"
   in the tab title, keeps a clicked move form from being sent twice, makes the hand's
   cards buttons only when you may play one, and brings the focus back to your move when
   the card you tapped has left the page. */
(function () {
  var base = document.title;
  var moved = false;
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
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) form.classList.add("sent");
    moved = true;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    // A form may outlive the move (only its cards change), so release every form.
    document.querySelectorAll("form.sent").forEach(function (f) { f.classList.remove("sent"); });
    setTimeout(update, 0);
    setTimeout(refocus, 0);
  });
  document.addEventListener("DOMContentLoaded", update);
})();
