// Site-wide progressive enhancement. The site works without JavaScript; htmx
// (served locally by django-htmx) adds partial page updates on top.
(function () {
  "use strict";

  // When an htmx request fails, tell the user in a live region instead of failing silently.
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
})();
