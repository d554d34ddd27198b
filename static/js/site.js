// Site-wide progressive enhancement. The site works without JavaScript; htmx
// (served locally by django-htmx) adds partial page updates on top.
(function () {
  "use strict";

  // htmx requests that change something carry the CSRF token in a header (pages hold no
  // token of their own, so that pages the same for everyone can be cached whole).
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.verb === "get") { return; }
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    var token = match ? decodeURIComponent(match[1]) : (field ? field.value : "");
    if (token) { event.detail.headers["X-CSRFToken"] = token; }
  });

  // The browser's time zone (an IANA name) for the server, which shows times in it
  // (tutorial/timezones.py); without it the site's zone applies and is named.
  var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
  var stored = document.cookie.match(/(?:^|;\s*)tz=([^;]+)/);
  if (zone && (!stored || decodeURIComponent(stored[1]) !== zone)) {
    document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax" +
      (location.protocol === "https:" ? "; secure" : "");
  }

  // Say what went wrong in a live region instead of failing silently.
  document.addEventListener("htmx:responseError", function () {
    var region = document.getElementById("htmx-status");
    if (!region) {
      region = document.createElement("p");
      region.id = "htmx-status";
      region.className = "htmx-status";
      region.setAttribute("role", "alert");
      document.body.appendChild(region);
    }
    region.textContent = document.documentElement.lang === "en"
      ? "Something went wrong. Please reload the page."
      : "出错了，请刷新页面再试。";
  });

  // A 429 (the per-client rate limit) answers htmx with a short message, which the server
  // asks htmx to put first in the element it was to swap (tutorial/ratelimit.py too_many):
  // swap it, in place of an earlier one. Listening on window runs after the pages' own
  // handlers (quiz.js, table.js, coach.js).
  window.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 429) {
      document.querySelectorAll(".limit-refusal").forEach(function (old) { old.remove(); });
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
