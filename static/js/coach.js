// 再来一次 (templates/coach/retry.html): htmx swaps the graded answer into #answer; a
// refused pick or amount (4xx) carries its message and is swapped in too, instead of
// being treated as a failure.
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var target = event.detail.target;
    if (status >= 400 && status < 500 && target && target.id === "answer") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
