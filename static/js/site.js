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
})();
