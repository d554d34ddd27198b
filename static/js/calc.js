// Companion pages (/calc/, /night/): progressive enhancement only. Without this
// script every form still works: cards are typed as codes, links are copied by hand.
//  - card picker: tap a card to add it to a player's hand; only cards still in the
//    deck are offered (2 of each kind, 1 丁丁 R3, 1 大鬼 JK)
//  - "copy link" buttons, the browser's time zone (IANA name) for a new night
//  - with htmx: choosing a split re-computes at once; focus follows the result
(function () {
  "use strict";

  var lang = document.documentElement.lang === "en" ? "en" : "zh";
  var WORDS = {
    zh: { pick: "选牌", picked: "已选：", remove: "拿掉", full: "四张选好了", none: "还没选" },
    en: { pick: "Pick cards", picked: "Picked:", remove: "remove", full: "Four cards picked",
          none: "none yet" }
  };
  var t = WORDS[lang];
  var active = null; // the cards <input> the picker fills

  function codes(input) {
    return input.value.toUpperCase().split(/[\s,.+\-、，]+/).filter(Boolean);
  }

  function seatFolded(input) {
    var fold = document.querySelector('[data-fold="' + input.id + '"]');
    return fold && fold.checked;
  }

  function picker() { return document.getElementById("card-picker"); }

  function refresh() {
    var box = picker();
    if (!box) { return; }
    var used = {};
    document.querySelectorAll("input[data-cards]").forEach(function (input) {
      if (seatFolded(input)) { return; }
      codes(input).forEach(function (c) { used[c] = (used[c] || 0) + 1; });
      drawChips(input);
    });
    var full = active && codes(active).length >= 4;
    box.querySelectorAll(".picker__kind").forEach(function (button) {
      var left = Math.max(parseInt(button.dataset.copies, 10) - (used[button.dataset.code] || 0), 0);
      button.querySelector(".picker__count").textContent = String(left);
      button.disabled = left === 0 || full;
    });
    var title = box.querySelector(".picker__title");
    if (title && active) {
      title.dataset.base = title.dataset.base || title.textContent;
      title.textContent = full ? t.full : title.dataset.base;
    }
  }

  function cardMarkup(code) {
    var source = picker() && picker().querySelector('.picker__kind[data-code="' + code + '"] .card');
    return source ? source.cloneNode(true) : null;
  }

  function drawChips(input) {
    var row = input.parentNode.querySelector(".picked");
    if (!row) { return; }
    row.textContent = "";
    var list = codes(input);
    var label = document.createElement("span");
    label.className = "picked__label";
    label.textContent = t.picked + (list.length ? "" : " " + t.none);
    row.appendChild(label);
    list.forEach(function (code, i) {
      var card = cardMarkup(code);
      if (!card) { return; }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "picked__card";
      button.setAttribute("aria-label", t.remove + " " + (card.getAttribute("aria-label") || code));
      card.removeAttribute("role");
      card.setAttribute("aria-hidden", "true");
      button.appendChild(card);
      button.addEventListener("click", function () {
        var now = codes(input);
        now.splice(i, 1);
        input.value = now.join(" ");
        refresh();
      });
      row.appendChild(button);
    });
  }

  function open(input, toggle) {
    var box = picker();
    if (!box) { return; }
    if (active === input && !box.hidden) { close(); return; }
    document.querySelectorAll(".picker-toggle").forEach(function (b) {
      b.setAttribute("aria-expanded", "false");
    });
    active = input;
    toggle.setAttribute("aria-expanded", "true");
    toggle.parentNode.insertBefore(box, toggle.nextSibling);
    box.hidden = false;
    refresh();
    var first = box.querySelector(".picker__kind:not([disabled])");
    if (first) { first.focus(); }
  }

  function close() {
    var box = picker();
    if (!box) { return; }
    box.hidden = true;
    var toggle = active && active.parentNode.querySelector(".picker-toggle");
    if (toggle) { toggle.setAttribute("aria-expanded", "false"); toggle.focus(); }
    active = null;
  }

  function initPicker(root) {
    var box = picker();
    if (!box || box.dataset.ready) { return; }
    box.dataset.ready = "1";
    box.querySelectorAll(".picker__kind").forEach(function (button) {
      button.addEventListener("click", function () {
        if (!active || codes(active).length >= 4) { return; }
        active.value = codes(active).concat([button.dataset.code]).join(" ");
        refresh();
        if (codes(active).length >= 4) {
          var done = box.querySelector("[data-picker-close]");
          if (done) { done.focus(); }
        }
      });
    });
    var undo = box.querySelector("[data-picker-undo]");
    if (undo) {
      undo.addEventListener("click", function () {
        if (!active) { return; }
        active.value = codes(active).slice(0, -1).join(" ");
        refresh();
      });
    }
    var done = box.querySelector("[data-picker-close]");
    if (done) { done.addEventListener("click", close); }
    box.addEventListener("keydown", function (e) { if (e.key === "Escape") { close(); } });

    root.querySelectorAll("[data-cards-field]").forEach(function (field) {
      var input = field.querySelector("input[data-cards]");
      var toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "button button--quiet picker-toggle";
      toggle.textContent = t.pick;
      toggle.setAttribute("aria-expanded", "false");
      toggle.setAttribute("aria-controls", "card-picker");
      toggle.addEventListener("click", function () { open(input, toggle); });
      var chips = document.createElement("div");
      chips.className = "picked";
      chips.setAttribute("aria-live", "polite");
      input.insertAdjacentElement("afterend", chips);
      chips.insertAdjacentElement("afterend", toggle);
      input.addEventListener("input", refresh);
    });
    root.querySelectorAll("[data-fold]").forEach(function (box2) {
      var field = document.querySelector('[data-cards-field="' + box2.dataset.fold + '"]');
      var sync = function () {
        if (field) { field.hidden = box2.checked; }
        if (box2.checked && active && active.id === box2.dataset.fold) { close(); }
        refresh();
      };
      box2.addEventListener("change", sync);
      sync();
    });
    refresh();
  }

  function initSplits(root) {
    var form = root.querySelector("#calc-form");
    if (!form || !window.htmx) { return; }
    form.querySelectorAll('.splits input[type="radio"]').forEach(function (radio) {
      radio.addEventListener("change", function () {
        var go = form.querySelector('button[name="go"]');
        if (go) { go.click(); }
      });
    });
  }

  function initCopy(root) {
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      if (button.dataset.ready) { return; }
      button.dataset.ready = "1";
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.dataset.copy);
        var status = button.parentNode.parentNode.querySelector(".share__status");
        var done = function () { if (status) { status.textContent = status.dataset.copiedText; } };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(input.value).then(done, function () {
            input.select();
          });
        } else {
          input.select();
          if (document.execCommand && document.execCommand("copy")) { done(); }
        }
      });
    });
  }

  function initTz(root) {
    var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    root.querySelectorAll("input[data-tz]").forEach(function (input) {
      if (zone) { input.value = zone; }
    });
  }

  function init(root) {
    initPicker(root);
    initSplits(root);
    initCopy(root);
    initTz(root);
  }

  var lastFocus = null;
  document.addEventListener("htmx:beforeRequest", function () {
    lastFocus = document.activeElement && document.activeElement.id;
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    active = null;
    init(document);
    if (!e.detail || !e.detail.target || e.detail.target.id !== "calc-body") { return; }
    var invalid = document.querySelector('#calc-body [aria-invalid="true"], #calc-body .form-errors');
    var result = document.getElementById("result-title");
    var same = lastFocus && document.getElementById(lastFocus);
    if (same && same.type === "radio") {
      same.focus();
    } else if (invalid) {
      if (!invalid.hasAttribute("tabindex") && invalid.tagName !== "INPUT") {
        invalid.setAttribute("tabindex", "-1");
      }
      invalid.focus();
    } else if (result) {
      result.focus();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
