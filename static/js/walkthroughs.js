// Walkthroughs (/walkthroughs/): keyboard arrows for the previous / next step, focus
// after an htmx step swap, the current step's dot in view (on a phone the dots are one
// row that scrolls), and the 串牌 squeeze of the full hand.
// Without JavaScript every step is a plain page and the links work as they are.
(function () {
  "use strict";

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  // ← → move between steps (not while typing, not on a slider such as the squeeze cover).
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") { return; }
    var target = e.target;
    if (typing(target) || (target.getAttribute && target.getAttribute("role") === "slider")) { return; }
    var link = document.querySelector(e.key === "ArrowLeft" ? "[data-wt-prev]" : "[data-wt-next]");
    if (link) { e.preventDefault(); link.click(); }
  });

  // After htmx swapped in a new step, move focus to its heading (screen readers read it).
  document.addEventListener("htmx:afterSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "wt-step") { return; }
    var heading = document.getElementById("wt-step-title");
    if (heading) { heading.focus({ preventScroll: true }); }
    var top = document.querySelector(".wt-title");
    if (top && top.getBoundingClientRect().top < 0) { top.scrollIntoView(); }
    showCurrentDot(document);
    initSqueeze(document);
  });

  function showCurrentDot(root) {
    var dots = root.querySelector(".wt-dots");
    var current = dots && dots.querySelector("[aria-current=step]");
    if (!current || dots.scrollWidth <= dots.clientWidth) { return; }
    var offset = current.getBoundingClientRect().left - dots.getBoundingClientRect().left;
    dots.scrollLeft += offset - (dots.clientWidth - current.offsetWidth) / 2;
  }

  // The squeeze: show the live component, map the cover's position to the stage hints.
  function stageFor(step) {
    if (step <= 0) { return ""; }
    if (step <= 3) { return "corner"; }
    if (step <= 8) { return "pips"; }
    return "whole";
  }

  function initSqueeze(root) {
    var box = root.querySelector("[data-wt-squeeze]");
    if (!box || box.hasAttribute("data-wt-ready")) { return; }
    var live = box.querySelector(".wt-squeeze__live");
    var cover = box.querySelector(".squeeze__cover");
    if (!live || !cover) { return; }
    box.setAttribute("data-wt-ready", "1");
    box.querySelector(".wt-squeeze__stages").hidden = true;
    live.hidden = false;
    var region = box.querySelector("[data-wt-squeeze-live]");
    var shown = "";
    function update() {
      var stage = stageFor(Number(cover.getAttribute("data-step") || "0"));
      if (stage === shown) { return; }
      shown = stage;
      var hints = box.querySelectorAll(".wt-squeeze__hint");
      for (var i = 0; i < hints.length; i++) {
        hints[i].hidden = hints[i].getAttribute("data-stage") !== stage;
        if (!hints[i].hidden && region) { region.textContent = hints[i].textContent; }
      }
    }
    new MutationObserver(update).observe(cover, { attributes: true, attributeFilter: ["data-step"] });
    // The table's component submits its form when the card is fully open; here the
    // form only opens the card at once and never leaves the page.
    var form = box.querySelector(".squeeze__form");
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (Number(cover.getAttribute("data-step")) < 10) {
        cover.dispatchEvent(new KeyboardEvent("keydown", { key: "End", bubbles: true, cancelable: true }));
      }
      update();
    });
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    showCurrentDot(document);
    initSqueeze(document);
  });
})();
