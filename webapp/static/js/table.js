/* Lapau's only hand-written script, and the table works without it: it puts "your turn"
   in the tab title and keeps a clicked move form from being sent twice. */
(function () {
  var base = document.title;
  function update() {
    var status = document.getElementById("status");
    var mine = status && status.getAttribute("data-turn") === "1";
    document.title = mine ? "\u25CF " + status.getAttribute("data-turn-text") + " \u00B7 " + base : base;
  }
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) form.classList.add("sent");
  });
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(update, 0); });
  document.addEventListener("DOMContentLoaded", update);
})();
