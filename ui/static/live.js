// tripgraph: makes the chat page behave like a chat. htmx does the posting
// and the swapping; this script keeps the message box in step with a
// reply's live stream, shows the traveller's message at once, places a
// refused post's notice next to its form, scrolls to the start of each
// new reply, moves the focus to a booking's confirmation, announces each
// reply once, and folds the thread list on a phone. Everything it does
// is an addition: the pages work without it.
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  function byId(id) { return document.getElementById(id); }
  function composer() { return byId("composer"); }
  function conversation() { return byId("conversation"); }

  // --- the message box ------------------------------------------------

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
      if (box) { box.focus({ preventScroll: true }); }
    }
  }

  // Enter sends; Shift+Enter (or Enter while composing text in an input
  // method) makes a new line.
  document.addEventListener("keydown", function (e) {
    var box = e.target;
    if (e.key !== "Enter" || e.shiftKey || e.isComposing || !box.matches || !box.matches("#composer textarea")) { return; }
    e.preventDefault();
    if (box.value.trim() !== "" && box.form.getAttribute("aria-busy") !== "true") { box.form.requestSubmit(); }
  });

  // The counter shows how much of the limit is used once most of it is
  // (characters counted as the server counts them: by code point).
  function count() {
    var box = document.querySelector("#composer textarea");
    var counter = byId("message-count");
    if (!box || !counter) { return; }
    var max = Number(counter.dataset.max), n = Array.from(box.value).length;
    var near = n >= max * 0.8;
    var lang = document.documentElement.lang || undefined;
    counter.textContent = near ? counter.dataset.of.replace("{n}", n.toLocaleString(lang)).replace("{max}", max.toLocaleString(lang)) : "";
    counter.classList.toggle("near", near);
    counter.classList.toggle("full", n >= max);
  }
  document.addEventListener("input", function (e) {
    if (e.target.matches && e.target.matches("#composer textarea")) { count(); }
  });

  // --- a turn: what was sent, and the reply it gets --------------------

  // turn is the exchange under way: the traveller's message on the page,
  // whether the page has scrolled to the reply, and whether a Book was
  // pressed (its confirmation then takes the focus).
  var turn = null;

  function newMessage(text) {
    var form = composer();
    var article = document.createElement("article");
    article.className = "message human pending";
    article.id = "msg-sending";
    var who = document.createElement("p");
    who.className = "who";
    who.textContent = form.dataset.you;
    var body = document.createElement("div");
    body.className = "body";
    body.textContent = text;
    var working = document.createElement("p");
    working.className = "tool-status working";
    working.id = "working";
    working.textContent = form.dataset.working;
    article.append(who, body);
    return [article, working];
  }

  function dropPending() {
    ["msg-sending", "working"].forEach(function (id) {
      var el = byId(id);
      if (el) { el.remove(); }
    });
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.target.closest && e.target.closest("form");
    if (!form) { return; }
    clearRefusal(form);
    turn = { scrolled: false, book: form.classList.contains("book"), human: null, humans: humans().length };
    setBusy(true);
    if (form.id === "composer") {
      var text = form.querySelector("textarea").value.trim();
      var shown = newMessage(text);
      var conv = conversation();
      shown.forEach(function (el) { conv.append(el); });
      shown[0].scrollIntoView({ block: "nearest" });
    }
  });

  // A refused post (a 4xx or 5xx answer) carries an error notice: it goes
  // in the form's error slot, next to what caused it, and the box keeps
  // its text.
  // formOf is the form whose post an htmx event is about: the event goes
  // to the swap's target, and names the element that asked.
  function formOf(e) {
    var asked = (e.detail.requestConfig && e.detail.requestConfig.elt) || e.target;
    return asked && asked.closest ? asked.closest("form") : null;
  }

  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    var form = formOf(e);
    if (xhr.status < 400) {
      if (form && form.id === "composer") { dropPending(); }
      return;
    }
    dropPending();
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("text/html") !== 0 || !e.detail.serverResponse) { return; }
    var slot = form && form.querySelector(".form-error");
    e.detail.shouldSwap = true;
    if (slot) {
      e.detail.target = slot;
      e.detail.swapOverride = "innerHTML";
    }
    setBusy(false);
  });

  document.addEventListener("htmx:afterSwap", function (e) {
    var form = formOf(e);
    if (form && e.detail.xhr && e.detail.xhr.status >= 400) { markRefusal(form); }
    // A post that added the traveller's message (a message, a trip
    // change): the reply to scroll to follows it.
    if (form && turn && e.detail.xhr && e.detail.xhr.status < 400) {
      var all = humans();
      if (all.length > turn.humans) { turn.human = all[all.length - 1]; }
    }
  });

  // The traveller scrolling takes over from the page.
  ["wheel", "touchmove"].forEach(function (type) {
    window.addEventListener(type, function () { if (turn) { turn.scrolled = true; } }, { passive: true });
  });
  document.addEventListener("keydown", function (e) {
    if (turn && /^(PageUp|PageDown|ArrowUp|ArrowDown|Home|End| )$/.test(e.key) && !(e.target.matches && e.target.matches("textarea, input"))) { turn.scrolled = true; }
  });

  function humans() { return conversation() ? conversation().querySelectorAll("article.message.human") : []; }

  // The refused fields (the notice's data-fields) are marked invalid and
  // described by the notice.
  function markRefusal(form) {
    var notice = form.querySelector(".form-error .error");
    if (!notice) { return; }
    notice.id = notice.id || "refusal-" + Math.random().toString(36).slice(2);
    (notice.dataset.fields || "").split(" ").forEach(function (name) {
      if (!name) { return; }
      var field = form.querySelector('[name="' + (name.indexOf("input.messages") === 0 ? "message" : name) + '"]');
      if (field) {
        field.setAttribute("aria-invalid", "true");
        field.setAttribute("aria-describedby", ((field.getAttribute("aria-describedby") || "") + " " + notice.id).trim());
      }
    });
    var first = form.querySelector('[aria-invalid="true"]');
    if (first) { first.focus(); }
  }

  function clearRefusal(form) {
    var slot = form.querySelector(".form-error");
    if (slot) { slot.textContent = ""; }
    form.querySelectorAll('[aria-invalid="true"]').forEach(function (field) {
      field.removeAttribute("aria-invalid");
      var ids = (field.getAttribute("aria-describedby") || "").split(" ").filter(function (id) { return id && id.indexOf("refusal-") !== 0; });
      if (ids.length) { field.setAttribute("aria-describedby", ids.join(" ")); } else { field.removeAttribute("aria-describedby"); }
    });
  }

  // A sent message clears the box; the network failing frees it with its
  // text.
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful && e.target.id === "composer") {
      e.target.reset();
      count();
    }
    if (!e.detail.successful) { dropPending(); setBusy(false); }
  });

  // The start of a reply: the first card under the traveller's message
  // (the trip), else the first message after it.
  function replyStart(t) {
    var human = t.human;
    if (!human || !human.isConnected) { return null; }
    var card = human.querySelector(".component");
    if (card) { return card; }
    for (var el = human.nextElementSibling; el; el = el.nextElementSibling) {
      if (el.matches("article.message.ai, .component")) { return el; }
    }
    return null;
  }

  // Each fragment of the live stream: the page scrolls to the start of
  // the reply once it appears, and keeps it at the top as the reply grows
  // below it (the page may be too short at first), until it is there or
  // the traveller scrolls; a booking waiting for its answer after a Book
  // takes the focus. This is done once per frame, before it is drawn:
  // measuring the page after each fragment would lay it out again for
  // each, and a stream that catches up hands over many fragments at once.
  var following = null; // the turn whose fragments wait for the next frame
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (!turn || following) { return; }
    following = turn;
    requestAnimationFrame(function () {
      var t = following;
      following = null;
      follow(t);
    });
  });

  function follow(t) {
    if (!t.scrolled) {
      var start = replyStart(t);
      if (start) {
        start.scrollIntoView({ block: "start" });
        t.scrolled = start.getBoundingClientRect().top < 40;
      }
    }
    if (t.book) {
      var pending = document.querySelectorAll(".component.booking-pending h3");
      var heading = pending[pending.length - 1];
      if (heading) {
        t.book = false;
        heading.setAttribute("tabindex", "-1");
        heading.closest(".component").scrollIntoView({ block: "nearest" });
        heading.focus({ preventScroll: true });
      }
    }
  }

  // The stream's end: the live region goes (its status line was for the
  // reply that ended), the reply is announced once, and the box is free
  // again.
  document.addEventListener("htmx:sseClose", function (e) {
    if (e.target.id === "live") { e.target.remove(); }
    announceReply();
    turn = null;
    setBusy(false);
  });

  // announceReply says the newest reply in the polite live region: the
  // assistant's newest message, else (a booking said by its card alone)
  // the newest booking card's heading.
  var announced = "";
  function announceReply() {
    var region = byId("announce");
    if (!region) { return; }
    var replies = conversation().querySelectorAll("article.message.ai .body");
    var last = replies[replies.length - 1];
    var said = last ? last.closest("article").querySelector(".who").textContent + ": " + last.textContent : "";
    if (!said || said === announced) {
      var cards = conversation().querySelectorAll(".component.booking h3");
      said = cards.length ? cards[cards.length - 1].textContent : said;
    }
    if (said && said !== announced) {
      announced = said;
      region.textContent = said;
    }
  }

  // --- times in the traveller's zone -------------------------------------

  // A <time data-local> written in UTC by the server is rewritten in the
  // browser's time zone, in the page's language.
  function localTimes(root) {
    var lang = document.documentElement.lang || undefined;
    root.querySelectorAll("time[data-local]").forEach(function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (isNaN(when)) { return; }
      var opts = t.dataset.local === "time" ? { hour: "2-digit", minute: "2-digit", timeZoneName: "short" }
        : { dateStyle: "medium", timeStyle: "short" };
      t.textContent = new Intl.DateTimeFormat(lang, opts).format(when);
      t.removeAttribute("data-local");
    });
  }
  document.addEventListener("htmx:load", function (e) { localTimes(e.detail.elt.parentNode || document); });

  // --- the page ----------------------------------------------------------

  document.addEventListener("DOMContentLoaded", function () {
    localTimes(document);
    // A page that rejoins a run waits for its end too.
    if (byId("live")) { setBusy(true); }
    // A thread opens at the traveller's newest message, with the box in
    // view (links to a thread say so with #latest; a reload may not).
    var latest = byId("latest");
    if (latest && !location.hash) { latest.scrollIntoView({ block: "start" }); }
    // On a phone the thread list folds behind its button.
    var toggle = document.querySelector(".threads-toggle");
    var nav = byId("threads");
    if (toggle && nav) {
      toggle.addEventListener("click", function () {
        var open = !nav.classList.contains("open");
        nav.classList.toggle("open", open);
        toggle.setAttribute("aria-expanded", open ? "true" : "false");
        if (open) { nav.querySelector("a, button").focus(); }
      });
    }
    count();
  });
})();
