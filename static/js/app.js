// Tretten's own script: keyboard play, focus kept across htmx swaps, the share button and
// the clock. No game rules here: the server marks what can be played.
(function () {
  "use strict";

  var KEY_ACTIONS = { u: ["undo"], r: ["redo"], d: ["draw", "recycle"], n: ["new"], h: ["hint"] };
  var CELL = "#board [data-loc]:not([data-removed]), #board [data-pos]";

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function clickAction(names) {
    for (var i = 0; i < names.length; i++) {
      var button = document.querySelector('#board [data-action="' + names[i] + '"]:not([disabled])');
      if (button) { button.click(); return true; }
    }
    return false;
  }

  // Arrow keys: go to the nearest card or gap in that direction, by on-screen position.
  function moveFocus(from, key) {
    var here = from.getBoundingClientRect();
    var cx = here.left + here.width / 2, cy = here.top + here.height / 2;
    var best = null, bestScore = Infinity;
    document.querySelectorAll(CELL).forEach(function (el) {
      if (el === from || el.disabled) return;
      var r = el.getBoundingClientRect();
      var dx = r.left + r.width / 2 - cx, dy = r.top + r.height / 2 - cy;
      var along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      var across = key === "ArrowRight" || key === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 2) return;
      var score = along + across * 2.5;
      if (score < bestScore) { bestScore = score; best = el; }
    });
    if (best) best.focus();
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (!document.getElementById("board")) return;
    if (event.key.indexOf("Arrow") === 0) {
      var current = document.activeElement;
      if (!current || !current.matches(CELL)) {
        var first = document.querySelector("#board .playable") || document.querySelector(CELL);
        if (first) first.focus();
      } else {
        moveFocus(current, event.key);
      }
      event.preventDefault();
      return;
    }
    var names = KEY_ACTIONS[event.key.toLowerCase()];
    if (!names) return;
    event.preventDefault();
    if (boardBusy()) {
      waitingKey = { names: names, at: Date.now() };  // pressed again on the board that comes back
      return;
    }
    clickAction(names);
  });

  // While the board's request is on its way, htmx drops a second one (hx-sync="this:drop"), and
  // the browser would then submit the form itself: a full page load. A key or a button pressed
  // meanwhile is kept (the last one) and pressed again on the board that comes back instead.
  var waitingKey = null;
  function boardBusy() {
    return !!document.querySelector("#board.htmx-request, #board .htmx-request");
  }
  document.addEventListener("submit", function (event) {
    if (event.target.closest && event.target.closest("#board") && boardBusy()) event.preventDefault();
  }, true);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest('#board button[data-action]');
    if (!button || !boardBusy()) return;
    event.preventDefault();
    waitingKey = { names: [button.getAttribute("data-action")], at: Date.now() };
  }, true);
  document.addEventListener("htmx:afterSettle", function () {
    var key = waitingKey;
    waitingKey = null;
    if (key && Date.now() - key.at < 5000) clickAction(key.names);
  });

  // After a swap the old buttons are gone: put focus back on the same place (or its successor).
  var lastFocus = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var el = document.activeElement;
    lastFocus = el && el.closest && el.closest("#board") ? {
      loc: el.getAttribute("data-loc"), pos: el.getAttribute("data-pos"), action: el.getAttribute("data-action")
    } : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    startClock();
    if (!lastFocus) return;
    var target = null;
    if (lastFocus.loc) target = document.querySelector('#board [data-loc="' + lastFocus.loc + '"]:not([data-removed])');
    if (!target && lastFocus.pos) target = document.querySelector('#board [data-pos="' + lastFocus.pos + '"]');
    if (!target && lastFocus.action) target = document.querySelector('#board [data-action="' + lastFocus.action + '"]:not([disabled])');
    if (!target) target = document.querySelector("#board .selected, #board .playable");
    if (target) target.focus();
  });

  // A tap on a card or gap while the board's last tap is still on its way (the form drops
  // it: hx-sync="this:drop") is kept, and made again on the board that comes back if the same
  // card (or gap) is still there: on a slow connection a quick pair of taps is not lost. The
  // server decides what that tap means, as for any other.
  var waitingTap = null;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest('#board button[name="target"]');
    if (!button || !boardBusy()) return;
    event.preventDefault();
    waitingTap = { value: button.value, card: button.getAttribute("data-card"), at: Date.now() };
  }, true);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful && event.target.closest && event.target.closest("#board")) waitingTap = null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var tap = waitingTap;
    waitingTap = null;
    if (!tap || Date.now() - tap.at > 5000) return;
    var selector = '#board button[name="target"][value="' + CSS.escape(tap.value) + '"]' +
      (tap.card ? '[data-card="' + CSS.escape(tap.card) + '"]' : ":not([data-card])") + ":not([disabled])";
    var again = document.querySelector(selector);
    if (again) again.click();
  });

  // Share: copy the link; the plain link stays for browsers without a clipboard.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share]");
    if (!button) return;
    var url = button.getAttribute("data-share");
    if (navigator.clipboard) {
      navigator.clipboard.writeText(url).then(function () {
        button.textContent = button.getAttribute("data-copied") || "✓";
      }, function () { window.prompt("", url); });
    } else {
      window.prompt("", url);
    }
  });

  // The clock of timed scoring: the server sends the elapsed seconds; we only count on.
  var clockTimer = null;
  function startClock() {
    if (clockTimer) clearInterval(clockTimer);
    var el = document.querySelector("[data-timer][data-running]");
    if (!el) return;
    var seconds = parseInt(el.getAttribute("data-timer"), 10) || 0;
    clockTimer = setInterval(function () {
      seconds += 1;
      var s = seconds % 60;
      el.textContent = Math.floor(seconds / 60) + ":" + (s < 10 ? "0" : "") + s;
    }, 1000);
  }

  // A hint names the cards (or button) of the suggested move; mark them on the board.
  function showHint() {
    var note = document.querySelector("#board [data-hint]");
    if (!note) return;
    var targets = [];
    (note.getAttribute("data-hint-locs") || "").split(" ").forEach(function (loc) {
      if (loc) targets.push('#board [data-loc="' + loc + '"]:not([data-removed])');
    });
    var card = note.getAttribute("data-hint-card"), pos = note.getAttribute("data-hint-pos");
    var action = note.getAttribute("data-hint-action");
    if (card) targets.push('#board [data-card="' + card + '"][data-pos]');
    if (pos) targets.push('#board [data-pos="' + pos + '"]');
    if (action) targets.push('#board [data-action="' + action + '"]');
    targets.forEach(function (selector) {
      var el = document.querySelector(selector);
      if (el) el.classList.add("hinted");
    });
  }
  document.addEventListener("htmx:afterSettle", showHint);

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-share]").forEach(function (b) { b.hidden = false; });
    startClock();
    showHint();
  });

  // Replays (/g/{id}/replay): ← → step, Home/End jump; the slider posts nothing, it only reads.
  var REPLAY_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var replay = document.getElementById("replay");
    if (!replay || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var name = REPLAY_KEYS[event.key];
    var link = name && replay.querySelector('a[data-replay="' + name + '"]');
    if (link) { event.preventDefault(); link.click(); }
  });
  var replayFocus = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var el = document.activeElement;
    replayFocus = el && el.closest && el.closest("#replay") ?
      (el.hasAttribute("data-replay-slider") ? "[data-replay-slider]" : el.getAttribute("data-replay") ? '[data-replay="' + el.getAttribute("data-replay") + '"]' : null) : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!replayFocus) return;
    var target = document.querySelector("#replay " + replayFocus) || document.querySelector("#replay [data-replay-slider]");
    if (target) target.focus();
    replayFocus = null;
  });
  // a swapped-in share link (it changes when the game ends) gets its copy button too
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("[data-share][hidden]").forEach(function (b) { b.hidden = false; });
  });
  // the slider shows where it is while it moves; the page follows when it is let go ("change")
  document.addEventListener("input", function (event) {
    if (!event.target.hasAttribute || !event.target.hasAttribute("data-replay-slider")) return;
    var out = document.querySelector("#replay [data-replay-position]");
    if (out) out.textContent = event.target.value + " / " + event.target.max;
  });
})();

// "Share result" on the end screen: the phone's share sheet, else the clipboard; the text
// stays on the page for whoever copies it by hand.
(function () {
  "use strict";

  function reveal() {
    document.querySelectorAll("[data-share-result][hidden]").forEach(function (b) { b.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);

  // a link in the role of a button: Space presses it too
  document.addEventListener("keydown", function (event) {
    if (event.key === " " && event.target.matches && event.target.matches("[data-share-result]")) {
      event.preventDefault();
      event.target.click();
    }
  });

  function onPhone() {
    return window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share-result]");
    if (!button) return;
    event.preventDefault();
    var box = button.closest("[data-share-box]");
    var pre = box.querySelector("[data-share-text]");
    var status = box.querySelector("[data-share-status]");
    var text = pre.textContent;
    function say(name) { status.textContent = button.getAttribute(name); }
    function byHand() {
      window.getSelection().selectAllChildren(pre);
      say("data-failed");
    }
    function copy() {
      if (!navigator.clipboard || !window.isSecureContext) { byHand(); return; }
      navigator.clipboard.writeText(text).then(function () { say("data-copied"); }, byHand);
    }
    if (navigator.share && onPhone()) {
      navigator.share({ text: text }).catch(function (error) {
        if (!error || error.name !== "AbortError") copy();  // cancelled by the player: nothing to do
      });
      return;
    }
    copy();
  });
})();

// The board's feel (controls): a tapped card is pressed at once, while the server's answer is on
// its way; a tap the server turned down shakes that card (the toast says why); on a desktop a card
// dragged onto another card or a gap is played as the two taps it stands for: the first selects,
// and only if the server then shows it selected, the second is the drop target. No rules here.
(function () {
  "use strict";

  var TARGET = '#board button[name="target"], #board .pile-action';
  var lastTap = null;

  document.addEventListener("pointerdown", function (event) {
    var el = event.target.closest && event.target.closest(TARGET);
    if (el && !el.disabled) el.classList.add("pressed");
  });
  document.addEventListener("pointerup", function () {
    setTimeout(function () {
      document.querySelectorAll("#board .pressed").forEach(function (el) {
        if (!document.querySelector("#board.htmx-request, #board .htmx-request")) el.classList.remove("pressed");
      });
    }, 400);
  });
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest('#board button[name="target"]');
    if (!el) return;
    el.classList.add("pressed");
    lastTap = { value: el.value, card: el.getAttribute("data-card") };
  });
  document.addEventListener("htmx:afterSettle", function () {
    var tap = lastTap;
    lastTap = null;
    var board = document.getElementById("board");
    if (!tap || !board || !board.querySelector('[data-note="not_playable"], [data-note="dead_gap"], [data-error]')) return;
    var el = board.querySelector('button[name="target"][value="' + CSS.escape(tap.value) + '"]');
    if (el) el.classList.add("refused");
  });

  // a question (New deal? Restart? Redeal?) floats over the board: its answer takes the focus
  document.addEventListener("htmx:afterSettle", function () {
    var yes = document.querySelector("#board [data-confirm] button.primary");
    if (yes) yes.focus();
  });

  // drag and drop where there is a mouse
  if (!window.matchMedia || !window.matchMedia("(hover: hover) and (pointer: fine)").matches) return;
  var dragged = null;
  function arm() {
    document.querySelectorAll('#board button[name="target"].playable').forEach(function (el) { el.draggable = true; });
  }
  document.addEventListener("DOMContentLoaded", arm);
  document.addEventListener("htmx:afterSettle", arm);
  document.addEventListener("dragstart", function (event) {
    var el = event.target.closest && event.target.closest('#board button[name="target"]');
    if (!el) return;
    dragged = el.value;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", el.value);
    el.classList.add("dragging");
  });
  document.addEventListener("dragend", function () {
    document.querySelectorAll("#board .dragging, #board .drop-over").forEach(function (el) { el.classList.remove("dragging", "drop-over"); });
  });
  document.addEventListener("dragover", function (event) {
    var el = dragged && event.target.closest && event.target.closest('#board button[name="target"]');
    if (!el || el.value === dragged) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    document.querySelectorAll("#board .drop-over").forEach(function (o) { if (o !== el) o.classList.remove("drop-over"); });
    el.classList.add("drop-over");
  });
  document.addEventListener("drop", function (event) {
    var el = dragged && event.target.closest && event.target.closest('#board button[name="target"]');
    var from = dragged;
    dragged = null;
    if (!el || el.value === from) return;
    event.preventDefault();
    var to = el.value;
    var source = document.querySelector('#board button[name="target"][value="' + CSS.escape(from) + '"]');
    if (!source) return;
    if (document.getElementById("board").getAttribute("data-selected")) {
      // a card already selected: the first tap would only change the selection, or deselect
      var selected = document.querySelector("#board button.selected");
      if (selected === source) { el.click(); return; }
    }
    document.addEventListener("htmx:afterSettle", function second() {
      document.removeEventListener("htmx:afterSettle", second);
      var board = document.getElementById("board");
      if (!board || !board.getAttribute("data-selected")) return;  // the first tap was already a move
      var target = board.querySelector('button[name="target"][value="' + CSS.escape(to) + '"]');
      if (target && !target.disabled) target.click();
    });
    source.click();
  });
})();
