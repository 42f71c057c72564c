/* Public pages: countdowns to a round's or match's time cap, and the big screen's slides.
   Everything works without this file; it only adds the ticking clock and the slideshow. */
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("data-countdown"));
      if (isNaN(end)) { return; }
      var left = Math.round((end - now) / 1000);
      if (left <= 0) {
        el.textContent = el.getAttribute("data-done") || "0:00";
        el.classList.add("over");
        return;
      }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }

  // The slideshow keeps its position on the element's parent, so an htmx refresh of the slides
  // (every few seconds) continues where it was instead of starting over.
  function showSlide(screen, index) {
    var slides = screen.querySelectorAll(".slide");
    if (!slides.length) { return; }
    index = ((index % slides.length) + slides.length) % slides.length;
    slides.forEach(function (slide, i) {
      slide.hidden = i !== index;
      slide.setAttribute("aria-hidden", i !== index ? "true" : "false");
    });
    screen.parentNode.setAttribute("data-slide-index", String(index));
    screen.setAttribute("data-current", slides[index].getAttribute("data-slide"));
  }

  function startScreen(screen) {
    var holder = screen.parentNode;
    var seconds = Math.max(1, parseInt(screen.getAttribute("data-interval"), 10) || 12);
    showSlide(screen, parseInt(holder.getAttribute("data-slide-index") || "0", 10));
    if (holder._screenTimer) { clearInterval(holder._screenTimer); }
    holder._screenTimer = setInterval(function () {
      var current = holder.querySelector("[data-screen]");
      if (!current) { return; }
      showSlide(current, parseInt(holder.getAttribute("data-slide-index") || "0", 10) + 1);
    }, seconds * 1000);
  }

  function init(root) {
    (root || document).querySelectorAll("[data-screen]").forEach(startScreen);
    if (root && root.matches && root.matches("[data-screen]")) { startScreen(root); }
    tick();
  }

  // A busy server answers a poll 503 with Retry-After (result entry comes first): the page keeps
  // what it shows and polls again only once that time has passed.
  var pollsHeldUntil = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (Date.now() < pollsHeldUntil && event.detail && event.detail.requestConfig &&
        event.detail.requestConfig.verb === "get") {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || xhr.status !== 503) { return; }
    var seconds = parseInt(xhr.getResponseHeader("Retry-After") || "", 10);
    pollsHeldUntil = Date.now() + 1000 * (isNaN(seconds) ? 10 : Math.min(Math.max(seconds, 1), 120));
  });

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    setInterval(tick, 1000);
    document.body.addEventListener("htmx:load", function (event) {
      var el = event.detail && event.detail.elt;
      if (el && el.matches && el.matches("[data-screen]")) {
        showSlide(el, parseInt(el.parentNode.getAttribute("data-slide-index") || "0", 10));
      }
      tick();
    });
  });
})();
