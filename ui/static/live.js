// tripgraph: keeps the message box in step with a run's live stream.
// htmx does the posting and the swapping; this only frees the box when a
// reply ends, shows a refused post's error in place, and moves the focus.
(function () {
  "use strict";

  function composer() { return document.getElementById("composer"); }

  function setBusy(busy) {
    var form = composer();
    if (!form) { return; }
    form.setAttribute("aria-busy", busy ? "true" : "false");
    form.querySelectorAll("button, textarea").forEach(function (el) { el.disabled = busy; });
    // The box takes the focus back only from nowhere (the disabled box
    // lost it): never from a control the person moved to meanwhile.
    var active = document.activeElement;
    if (!busy && (!active || active === document.body || form.contains(active))) {
      var box = form.querySelector("textarea");
      if (box) { box.focus(); }
    }
  }

  // A post that starts a run: the box waits for the reply.
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (e.target.closest && e.target.closest("form")) { setBusy(true); }
  });

  // A refused post (a 4xx or 5xx answer) carries an error notice for the
  // conversation: show it, and free the box.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var type = e.detail.xhr.getResponseHeader("Content-Type") || "";
    if (e.detail.xhr.status >= 400 && type.indexOf("text/html") === 0 && e.detail.serverResponse) {
      e.detail.shouldSwap = true;
      setBusy(false);
    }
  });

  // A sent message clears the box.
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful && e.target.id === "composer") { e.target.reset(); }
    if (!e.detail.successful) { setBusy(false); } // refused, or the network failed
  });

  // The stream's end: the live region goes (its status line was for the
  // reply that ended) and the box is free again.
  document.addEventListener("htmx:sseClose", function (e) {
    if (e.target.id === "live") { e.target.remove(); }
    setBusy(false);
  });

  // A page that rejoins a run waits for its end too.
  document.addEventListener("DOMContentLoaded", function () {
    if (document.getElementById("live")) { setBusy(true); }
  });
})();
