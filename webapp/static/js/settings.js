/* The settings page's preview follows the sliders as they move, before "Apply": the
   colours are mixed in site.css from the --set-* values put here.  Without this script
   the "Preview" button shows the choices after a round trip, so it hides here. */
(function () {
  var preview = document.getElementById("preview");
  var form = preview && preview.closest("form");
  if (!form) return;
  function follow() {
    ["contrast", "grain", "temperature"].forEach(function (name) {
      preview.style.setProperty("--set-" + name, form.elements[name].value);
    });
    preview.setAttribute("data-live", "");
  }
  form.addEventListener("input", follow);
  var button = form.querySelector("button[name=preview]");
  if (button) button.hidden = true;
})();
