/* Behaviour the templates used to write inline (onclick, hx-on), here so that the
   Content-Security-Policy allows only the site's own files (no 'unsafe-inline', no 'unsafe-eval').
   Every page works without it (a confirm is skipped). The print buttons keep their one-call
   handler, onclick="window.print()", which the policy allows by its hash alone. */
(function () {
  "use strict";

  // <button data-confirm="Delete this draft?">: ask first; "Cancel" stops the form.
  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-confirm]") : null;
    if (!target) { return; }
    if (!window.confirm(target.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });

  // The match page answers a refused write with 400 or 409 and the page to show (the current
  // state and the reason): swap it in like a success instead of dropping it.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if ((status === 400 || status === 409) && event.target.closest && event.target.closest("[data-swap-refusals]")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // <button data-step="1" data-for="id_bombs">: a stepper for a number input (Dou Dizhu's bombs);
  // without JavaScript the input itself is typed in.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-step]") : null;
    if (!button) { return; }
    var input = document.getElementById(button.getAttribute("data-for"));
    if (!input) { return; }
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
    var low = parseInt(input.min, 10), high = parseInt(input.max, 10);
    if (!isNaN(low) && value < low) { value = low; }
    if (!isNaN(high) && value > high) { value = high; }
    input.value = String(value);
  });
})();
