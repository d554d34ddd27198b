// Quizzes (templates/quiz/): progressive enhancement on top of plain forms.
// - htmx swaps the feedback into #quiz-area; 4xx answers (bad input, replays) carry a
//   message and are swapped in too instead of being treated as failures.
// - after a swap, focus moves to the new heading so screen readers read the verdict.
// - "put in order": click items strongest first (fills the position selects); drag and
//   drop reorders too.  The selects stay usable without JavaScript.
(function () {
  "use strict";

  function inQuiz(elt) {
    return elt && elt.closest && elt.closest("[data-quiz-area]");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status >= 400 && status < 500 && inQuiz(event.detail.elt)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var area = document.getElementById("quiz-area");
    if (!area || !area.contains(event.target) && event.target !== area) return;
    setup(area);
    var focus = area.querySelector("[data-quiz-focus]");
    if (focus) focus.focus();
  });

  document.addEventListener("DOMContentLoaded", function () {
    setup(document);
  });

  function setup(root) {
    root.querySelectorAll("[data-quiz-order]").forEach(setupOrder);
  }

  function setupOrder(list) {
    if (list.dataset.ready) return;
    list.dataset.ready = "1";
    var form = list.closest("form");
    form.querySelectorAll(".quiz-js-only").forEach(function (el) { el.hidden = false; });
    var items = Array.prototype.slice.call(list.querySelectorAll(".quiz-order__item"));

    function select(item) { return item.querySelector("[data-quiz-pos]"); }
    function used() {
      return items.map(function (it) { return select(it).value; }).filter(Boolean);
    }
    function refresh() {
      items.forEach(function (item) {
        var placed = select(item).value;
        item.classList.toggle("quiz-order__item--placed", !!placed);
        item.querySelector("[data-quiz-place]").disabled = !!placed;
      });
    }
    function place(item) {
      var taken = used();
      for (var p = 1; p <= items.length; p++) {
        if (taken.indexOf(String(p)) < 0) { select(item).value = String(p); break; }
      }
      refresh();
    }

    items.forEach(function (item) {
      item.querySelector("[data-quiz-place]").addEventListener("click", function () { place(item); });
      select(item).addEventListener("change", refresh);
      // Drag and drop: dropping item A on item B puts A just before B.
      item.draggable = true;
      item.addEventListener("dragstart", function (e) {
        e.dataTransfer.setData("text/plain", item.dataset.key);
        item.classList.add("quiz-order__item--dragging");
      });
      item.addEventListener("dragend", function () {
        item.classList.remove("quiz-order__item--dragging");
      });
      item.addEventListener("dragover", function (e) { e.preventDefault(); });
      item.addEventListener("drop", function (e) {
        e.preventDefault();
        var key = e.dataTransfer.getData("text/plain");
        var dragged = list.querySelector('.quiz-order__item[data-key="' + key + '"]');
        if (!dragged || dragged === item) return;
        list.insertBefore(dragged, item);
        // The visual order becomes the answer.
        list.querySelectorAll(".quiz-order__item").forEach(function (it, i) {
          select(it).value = String(i + 1);
        });
        items = Array.prototype.slice.call(list.querySelectorAll(".quiz-order__item"));
        refresh();
      });
    });

    var reset = form.querySelector("[data-quiz-reset]");
    if (reset) {
      reset.addEventListener("click", function () {
        items.forEach(function (item) { select(item).value = ""; });
        refresh();
      });
    }
    refresh();
  }
})();
