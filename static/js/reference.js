// Reference pages (templates/reference/): the interactive 口诀 on /cards/.
// Without JavaScript each word of the 口诀 is a link to its card(s) and CSS :target
// highlights them; with it, each word becomes a toggle button that lights up its cards.
(function () {
  "use strict";

  function initKoujue(root) {
    var status = root.querySelector("[data-koujue-status]");
    var words = [];
    var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

    function kinds(list) {
      return (list || "").split(" ").filter(Boolean);
    }

    function clear() {
      document.querySelectorAll(".kind.is-lit, .kind.is-also").forEach(function (el) {
        el.classList.remove("is-lit", "is-also");
      });
      words.forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    }

    function light(button) {
      var wasOn = button.getAttribute("aria-pressed") === "true";
      clear();
      if (wasOn) {
        status.textContent = root.dataset.msgCleared || "";
        return;
      }
      button.setAttribute("aria-pressed", "true");
      var first = null;
      kinds(button.dataset.kinds).forEach(function (code) {
        var el = document.getElementById("kind-" + code);
        if (el) { el.classList.add("is-lit"); first = first || el; }
      });
      kinds(button.dataset.also).forEach(function (code) {
        var el = document.getElementById("kind-" + code);
        if (el) { el.classList.add("is-also"); }
      });
      var text = button.textContent + (root.dataset.msgArrow || " → ") + button.dataset.names;
      if (button.dataset.alsoNames) {
        text += (root.dataset.msgAlso || "；") + button.dataset.alsoNames;
      }
      status.textContent = text;
      if (first) {
        var box = first.getBoundingClientRect();
        if (box.top < 0 || box.bottom > window.innerHeight) {
          first.scrollIntoView({ block: "center", behavior: reduceMotion ? "auto" : "smooth" });
        }
      }
    }

    root.querySelectorAll("a.koujue__word").forEach(function (link) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = link.className;
      button.textContent = link.textContent;
      button.setAttribute("aria-pressed", "false");
      Object.keys(link.dataset).forEach(function (key) { button.dataset[key] = link.dataset[key]; });
      button.addEventListener("click", function () { light(button); });
      link.replaceWith(button);
      words.push(button);
    });

    root.addEventListener("keydown", function (event) {
      if (event.key === "Escape") {
        clear();
        status.textContent = root.dataset.msgCleared || "";
      }
    });
  }

  function init() {
    document.querySelectorAll("[data-koujue]").forEach(initKoujue);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
