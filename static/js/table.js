// Practice table (/table/): the 串牌 squeeze and htmx error handling.
// Without JavaScript every control is a plain form; this file only enhances.
(function () {
  "use strict";

  var STEPS = 10;

  function setStep(cover, step) {
    step = Math.max(0, Math.min(STEPS, step));
    // The practice table sends the card only when the learner starts to squeeze it.
    var card = cover.closest(".squeeze__stage").querySelector(".squeeze__card[hx-get]");
    if (step > 0 && card && window.htmx) { window.htmx.trigger(card, "squeeze-start"); }
    for (var i = 1; i <= STEPS; i++) { cover.classList.remove("is-step-" + i); }
    if (step > 0) { cover.classList.add("is-step-" + step); }
    cover.setAttribute("data-step", String(step));
    cover.setAttribute("aria-valuenow", String(step));
    if (step >= STEPS && !cover.hasAttribute("data-done")) {
      cover.setAttribute("data-done", "1");
      var form = cover.closest(".squeeze").querySelector(".squeeze__form");
      window.setTimeout(function () { form.requestSubmit(); }, 600);
    }
  }

  function initSqueeze(root) {
    var cover = root.querySelector(".squeeze__cover");
    if (!cover || cover.hasAttribute("data-ready")) { return; }
    cover.setAttribute("data-ready", "1");
    var startX = 0, startY = 0, base = 0, dragging = false;
    cover.addEventListener("keydown", function (e) {
      var step = Number(cover.getAttribute("data-step"));
      if (["ArrowDown", "ArrowRight", " ", "Enter"].indexOf(e.key) >= 0) {
        e.preventDefault(); setStep(cover, step + 1);
      } else if (["ArrowUp", "ArrowLeft"].indexOf(e.key) >= 0) {
        e.preventDefault(); setStep(cover, step - 1);
      } else if (e.key === "End") {
        e.preventDefault(); setStep(cover, STEPS);
      }
    });
    cover.addEventListener("pointerdown", function (e) {
      dragging = true; startX = e.clientX; startY = e.clientY;
      base = Number(cover.getAttribute("data-step"));
      cover.setPointerCapture(e.pointerId);
    });
    cover.addEventListener("pointermove", function (e) {
      if (!dragging) { return; }
      var h = cover.offsetHeight || 100;
      var moved = Math.max(e.clientY - startY, (e.clientX - startX) * 1.4);
      setStep(cover, base + Math.floor((moved / h) * STEPS));
    });
    function stop() { dragging = false; }
    cover.addEventListener("pointerup", stop);
    cover.addEventListener("pointercancel", stop);
  }

  // After htmx replaces the board, the focused control is gone: put the focus where the
  // player goes on (the refusal message, the squeeze, the first action, the split, the
  // next hand), so that the whole table can be played from the keyboard.
  var FOCUS_ORDER = [".table-error", ".squeeze__cover", ".actions button",
                     ".split__pick input", ".between .act--deal", "#board"];

  function refocus() {
    var board = document.getElementById("board");
    var active = document.activeElement;
    if (!board || (active && active !== document.body && document.body.contains(active))) {
      return;
    }
    for (var i = 0; i < FOCUS_ORDER.length; i++) {
      var el = FOCUS_ORDER[i] === "#board" ? board : board.querySelector(FOCUS_ORDER[i]);
      if (el) {
        if (el === board || el.classList.contains("table-error")) {
          el.setAttribute("tabindex", "-1");
        }
        el.focus();
        return;
      }
    }
  }

  document.addEventListener("DOMContentLoaded", function () { initSqueeze(document); });
  document.addEventListener("htmx:afterSettle", function () {
    initSqueeze(document);
    refocus();
  });

  // A refused action (stale step, illegal move: 4xx) comes back as the current board
  // with a message: show it instead of treating it as a failure.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var status = e.detail.xhr.status;
    if (status >= 400 && status < 500 && e.detail.target && e.detail.target.id === "board") {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
})();
