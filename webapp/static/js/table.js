/* Lapau's only hand-written script, and the table works without it: it puts "your turn"
   in the tab title and keeps a clicked move form from being sent twice. */
(function () {
  var base = document.title;
  function update() {
    var status = document.getElementById("status");
    var mine = status && status.getAttribute("data-turn") === "1";
    var turn = status && status.querySelector(".turn");
    document.title = mine && turn ? "\u25CF " + turn.textContent + " \u00B7 " + base : base;
  }
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) form.classList.add("sent");
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    // A form may outlive the move (only its cards change), so release every form.
    document.querySelectorAll("form.sent").forEach(function (f) { f.classList.remove("sent"); });
    setTimeout(update, 0);
  });
  document.addEventListener("DOMContentLoaded", update);
})();
