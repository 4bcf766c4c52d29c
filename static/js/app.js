// Tretten's own script: keyboard play, focus kept across htmx swaps, the share button and
// the clock. No game rules here: the server marks what can be played.
(function () {
  "use strict";

  var KEY_ACTIONS = { u: ["undo"], r: ["redo"], d: ["draw", "recycle", "redeal"], n: ["new"], h: ["hint"] };
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

  // Arrow keys: go to the next card or gap in that direction, by on-screen position. One in
  // line comes first (in the same row, or lying over or under this one), the nearest of those:
  // a pyramid's rows are half a card apart, so the row above is a neighbour and the card two
  // rows up, straight above, is not; only where nothing is in line does the nearest by distance
  // and angle count.
  function moveFocus(from, key) {
    var here = from.getBoundingClientRect();
    var cx = here.left + here.width / 2, cy = here.top + here.height / 2;
    var sideways = key === "ArrowRight" || key === "ArrowLeft";
    var best = null, bestScore = Infinity;
    document.querySelectorAll(CELL).forEach(function (el) {
      if (el === from || el.disabled) return;
      var r = el.getBoundingClientRect();
      var dx = r.left + r.width / 2 - cx, dy = r.top + r.height / 2 - cy;
      var along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      var across = sideways ? Math.abs(dy) : Math.abs(dx);
      if (along <= 2) return;
      // (a pyramid's next row up is about half a card higher: not the same row)
      var inLine = sideways ? across < (here.height + r.height) / 8 : across < (here.width + r.width) / 2;
      // in line: the nearest, then the least off to the side (by a pixel's thousandth); any
      // other comes after every one in line
      var score = inLine ? Math.round(along) + across / 1000 : 1e6 + along + across * 2.5;
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
    if (window.TrettenBoard && window.TrettenBoard.keep(names)) return;  // made on the board that comes
    clickAction(names);
  });

  // After a swap the old buttons are gone: put focus back on the same place (or its successor).
  // A card played is gone before the answer comes (the page shows the move at once), so focus
  // that was on the board and fell to the page goes back to the board: a card to play, or on a
  // finished game the end panel's "New deal".
  var lastFocus = null, boardHadFocus = false;
  document.addEventListener("focusin", function (event) {
    boardHadFocus = !!(event.target.closest && event.target.closest("#board"));
  });
  document.addEventListener("pointerdown", function (event) {
    if (!(event.target.closest && event.target.closest("#board"))) boardHadFocus = false;
  }, true);
  function focusLost() {
    var el = document.activeElement;
    return !el || el === document.body || !document.documentElement.contains(el);
  }
  function boardFocus() {
    var board = document.getElementById("board");
    var ended = board && board.getAttribute("data-status") !== "playing" &&
      board.querySelector('[data-banner] [data-action="new"]');
    // with no card to play, the move left: the stock's card that draws, or the pile's button
    // (not the first card, which says "cannot be played now")
    return ended || document.querySelector("#board .selected, #board .playable") ||
      document.querySelector('#board [data-loc="S"][data-move]') ||
      document.querySelector('#board :is([data-action="draw"], [data-action="recycle"], [data-action="redeal"]):not([disabled])') ||
      document.querySelector('#board button[name="target"]:not([disabled])');
  }
  // Enter (or a tap) on the stock's card that draws: the card goes to the waste at once, and
  // the keyboard stays on the stock, where the next card comes (else the next Enter would play
  // whatever card the focus fell to)
  var drewFromStock = false;
  document.addEventListener("click", function (event) {
    // the card itself, or the Draw (its strip, or the d key) while the keyboard is on the card
    var el = event.target.closest && event.target.closest('#board [data-loc="S"][data-move], #board [data-action="draw"]');
    var card = document.querySelector('#board [data-loc="S"][data-card]');
    drewFromStock = !!el && !!card && document.activeElement === card;
  }, true);
  // a request (or swap) of a new board: not of a part of it. The focus is kept for these only: the
  // board's own requests as it is laid (its verdict, its analysis) come when the pressed button is
  // gone already, and focus nothing
  function forBoard(event) { var t = event.detail && event.detail.target; return !!t && t.id === "board"; }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!forBoard(event)) return;
    var el = document.activeElement;
    lastFocus = el && el.closest && el.closest("#board") ? {
      loc: el.getAttribute("data-loc"), pos: el.getAttribute("data-pos"), action: el.getAttribute("data-action")
    } : null;
    if (drewFromStock) {
      lastFocus = { loc: "S", action: "draw" };
      drewFromStock = false;
    }
  });
  // The table stays under the player's thumb when a board comes: a board shorter than the one it
  // replaces (the note under a deal not yet played goes with its first move) leaves the page at
  // least as tall as it was scrolled, the rest room under the table (and nothing anchors the
  // scroll: static/css/app.css); once laid, the page keeps only the height its scroll needs.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var body = document.body;
    if (!forBoard(event) || !window.scrollY) return;
    var height = document.documentElement.scrollHeight;
    if (height > (parseFloat(body.style.minHeight) || 0)) body.style.minHeight = height + "px";
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var body = document.body;
    if (!forBoard(event) || !body.style.minHeight) return;
    var content = 0;  // where the page's own content ends
    Array.prototype.forEach.call(body.children, function (el) { content = Math.max(content, el.getBoundingClientRect().bottom); });
    var needed = window.scrollY + window.innerHeight;
    body.style.minHeight = content + window.scrollY >= needed ? "" : needed + "px";
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    startClock();
    var kept = null;  // once: a later swap of a part of the board moves no focus
    if (forBoard(event)) { kept = lastFocus; lastFocus = null; }
    if (!kept) {
      if (boardHadFocus && focusLost() && document.getElementById("board")) {
        var back = boardFocus();
        if (back) back.focus();
      }
      return;
    }
    var target = null;
    if (/^(confirm-)?(new|restart)$/.test(kept.action || "")) kept = {};  // a new deal: its cards
    if (kept.loc) target = document.querySelector('#board [data-loc="' + kept.loc + '"]:not([data-removed])');
    if (!target && kept.pos) target = document.querySelector('#board [data-pos="' + kept.pos + '"]');
    if (!target && kept.action) target = document.querySelector('#board [data-action="' + kept.action + '"]:not([disabled])');
    if (!target) target = boardFocus();
    if (target) target.focus();
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
      // as the server writes it (formatting.duration): 2:41, and 1:02:41 from an hour
      var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
      el.textContent = (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
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
  // the hint asked for: its words are under the table, below a phone's window; bring them in
  // with as little scrolling as they need (the marked cards stay in view above them)
  document.addEventListener("htmx:afterSettle", function (event) {
    showHint();
    var note = document.querySelector("#board [data-hint]");
    if (note && event.detail.target && event.detail.target.id === "board" &&
        note.getBoundingClientRect().bottom > window.innerHeight) note.scrollIntoView({ block: "nearest" });
  });

  document.addEventListener("DOMContentLoaded", function () {
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
  // the frame is swapped at every step: focus goes back to the control that had it (Play/Pause
  // and the speed are kept through the swaps, hx-preserve, and keep theirs)
  var replayFocus = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var el = document.activeElement;
    replayFocus = el && el.closest && el.closest("#replay") ?
      (el.hasAttribute("data-replay-slider") ? "[data-replay-slider]" :
       el.getAttribute("data-replay") ? '[data-replay="' + el.getAttribute("data-replay") + '"]' : null) : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!replayFocus) return;
    var target = document.querySelector("#replay " + replayFocus) || document.querySelector("#replay [data-replay-slider]");
    if (target) target.focus();
    replayFocus = null;
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

  // the copy buttons come with the script; the one beside "Share link" only where that opens a
  // share sheet (a phone): elsewhere "Share link" copies, and both would do the same
  function showCopyButtons() {
    var sheet = !!navigator.share && onPhone();
    document.querySelectorAll("[data-share][hidden]").forEach(function (b) {
      if (sheet || !b.parentNode.querySelector("[data-share-url]")) b.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", showCopyButtons);
  // a swapped-in share link (it changes when the game ends) gets its copy button too
  document.addEventListener("htmx:afterSettle", showCopyButtons);

  // Share: "Share link" opens a phone's share sheet, and elsewhere copies the link as "Copy link"
  // does, said beside them. The plain link stays (it opens the deal's page) without script, for
  // a click that opens it elsewhere, and where there is neither a sheet nor a clipboard.
  var copiedTimer = null;  // the note "Link copied." goes after a while
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("[data-share], [data-share-url]");
    if (!el || event.button || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    var url = el.getAttribute("data-share") || el.href;
    var sheet = el.hasAttribute("data-share-url") && navigator.share && onPhone();
    if (!sheet && !navigator.clipboard) {
      if (el.hasAttribute("data-share")) window.prompt("", url);
      return;
    }
    event.preventDefault();
    function copy() {
      var status = el.parentNode.querySelector("[data-share-link-status]");
      if (!navigator.clipboard) { window.prompt("", url); return; }
      navigator.clipboard.writeText(url).then(function () {
        if (!status) return;
        status.textContent = el.getAttribute("data-copied");
        // a note over the page, as a toast: it goes by itself (it stayed over the moves' count)
        clearTimeout(copiedTimer);
        copiedTimer = setTimeout(function () { status.textContent = ""; }, 3000);
      }, function () { window.prompt("", url); });
    }
    if (!sheet) { copy(); return; }
    navigator.share({ url: url }).catch(function (error) {
      if (!error || error.name !== "AbortError") copy();  // cancelled by the player: nothing to do
    });
  });

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

// The board answers at once (issue 26). Each place the server drew carries what a tap on it
// would do (templates/_cards.html, "answers"), and the board what each of its moves leads to,
// one move ahead (app/web/views/boards.py). The page selects by itself, with no request; a move
// shows the moment it is made and is posted with the ply it was made on, the next one when the
// board of the last one has come (in order: a queue); each board that comes is laid in as the
// truth, with the moves still on their way shown on it again. A refusal (another tab moved)
// drops those and shows the server's board and its reason. A tap the page has no answer for
// yet (two moves ahead) is kept, in order, and made on the board that comes. No rules here: the
// page only reads what the server wrote. Without this script the form posts every tap.
//
// Nothing a player does is lost on a real network (issue 39). Each move carries an id the page
// makes (`mid`): sent again, the server answers it with the board as stored, never applying it
// twice (app/services/play/lifecycle.py: repeated). A move stays in the queue until the server
// has answered it: a network error (no answer, a 5xx, a timeout) keeps it and sends it again
// after a pause that grows (RETRY_MS), and at once when the network is back (`online`, the page
// shown again). The queue and the kept taps live in the tab's sessionStorage until answered, so
// a reload sends them again. `#board` says how many moves wait (`data-pending`), and so does the
// status beside the board once they wait long or the network failed, read out by #sync-said
// (which holds the words, drawn by the server in the page's language).
// docs/architecture.md, "the walk of one move", has the protocol.
(function () {
  "use strict";

  var queue = [];      // moves shown and not yet answered: {mid, spec, fields}; the first is posted
  var posted = false;  // queue[0] is on its way
  // htmx's own requests for the board on their way (undo, hint, new deal…): each counted until
  // its own end, never another's (a move's answer ends after its board is laid in, when it is
  // no longer ours: counting it off then let a kept Undo go while one was on its way, and
  // htmx drops a form's second request while its first is out)
  var others = [];
  var known = true;    // the answers on the page are those of what it shows
  var later = [];      // taps and presses made while no answer was known: {value, card, at} or {actions}
  // A double tap on a card that one tap moves (a Gaps card with one gap to go to): its second
  // half lands on the card in its new place, where it cannot be played. The move was the answer,
  // so that tap is let go without a refusal.
  var arrived = null;  // where the last move made here took a card, and when: {place, at}
  // Its second half may also land where the card was, now the gap it left: that is no fill of
  // the gap either (a gap there with one card to take played a second move).
  var left = null;     // the place the last move made here took a card from, and when: {place, at}
  var tapAt = 0, keptAt = 0;  // when the tap being made was made (a kept tap: when it was kept)
  var DOUBLE_TAP_MS = 600;
  // a refused move's board (another tab's change) is the table now: presses this soon after it
  // came were meant for the one before
  var SETTLE_MS = 600, refusedAt = 0;
  var lastAction = null;  // the button last pressed and made: {name, at} (its double press is let go)
  // the network: a post with no answer is sent again after these pauses (the last repeats; at
  // once when the network comes back); an answer slower than TIMEOUT_MS counts as none
  var RETRY_MS = [1000, 2000, 4000], TIMEOUT_MS = 15000, SLOW_MS = 1500;
  var failures = 0;     // posts in a row that got no answer
  var retryTimer = null;
  var base = null;      // {ply, version} to post queue[0] on, when the board is not the one it was made on (a reload)
  var stale = false;    // a request of the board got no answer: the board is fetched when the network is back
  var draining = false; // kept taps are being made; one refused drops the rest
  // the words of kept taps not made (one refused or gone when its turn came, and those after it):
  // the status says them instead of "All moves saved." once nothing waits, until the next press
  var notMade = "";
  var shownSince = 0;   // since when something waits (for the status)

  function board() { return document.getElementById("board"); }
  function newMid() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  function waiting() { return !known || others.length > 0; }
  function words(el, name) { return (el.getAttribute(name) || "").split(" ").filter(Boolean); }
  function place(value) {
    return value ? document.querySelector('#board button[name="target"][value="' + CSS.escape(value) + '"]') : null;
  }
  function current() { return document.querySelector('#board button[name="target"].selected'); }
  function data(name) {
    var el = document.querySelector("#board [data-ahead]");
    try { return el ? JSON.parse(el.getAttribute(name)) : {}; } catch (e) { return {}; }
  }
  // a note or a refusal is named by its key (data-note, data-refusal); the board carries each
  // key's words once, in the page's language (data-words)
  function said(key) { return key ? data("data-words")[key] || "" : ""; }

  function select(el) {
    var b = board();
    if (window.TrettenMotion) window.TrettenMotion.dealt();
    b.querySelectorAll('button[name="target"].selected, button[name="target"].partner').forEach(function (o) {
      o.classList.remove("selected", "partner");
      o.removeAttribute("aria-pressed");
    });
    b.setAttribute("data-selected", el ? el.value : "");
    var sel = b.querySelector('input[name="sel"]');
    if (sel) sel.value = el ? el.value : "";
    if (!el) return;
    el.classList.add("selected");
    el.setAttribute("aria-pressed", "true");
    words(el, "data-partners").forEach(function (v) {
      var p = place(v);
      if (p) p.classList.add("partner");
    });
  }

  // the server's words for a tap, next to the card (and read out), until the next tap
  function hush() {
    document.querySelectorAll(".toast[data-near], #board .toast").forEach(function (t) { t.remove(); });
  }
  function say(el, text) {
    hush();
    if (!text) return;
    var toast = document.createElement("p");
    toast.className = "toast message near";
    toast.setAttribute("data-near", el.value || "");
    toast.setAttribute("aria-hidden", "true");  // #announce reads it out
    toast.textContent = text;
    board().appendChild(toast);  // fixed in the window; laid into the boards that come (afterSwap)
    if (window.TrettenTable) window.TrettenTable.placeToast(toast, el.getBoundingClientRect());
    var announce = document.getElementById("announce");
    if (announce) announce.textContent = text;
    return toast;
  }

  function refuse(el, text) {
    // a kept tap turned down: the ones after it were meant for another board. Not done, said so
    // (the tap was made a while ago: its shake alone is easily missed), with the card's reason
    if (draining) {
      later = [];
      text = keptNotMade("data-kept-refused", text);
    }
    el.classList.remove("refused");
    void el.offsetWidth;  // the shake plays again on a second refused tap
    el.classList.add("refused");
    el.addEventListener("animationend", function done() {
      el.removeEventListener("animationend", done);
      el.classList.remove("refused");
    });
    return say(el, text);
  }

  // What a move looks like before its board comes: a card that leaves gives way to an empty
  // place; a card that goes somewhere (into a gap, onto the waste) takes that place. The
  // server's board then lays in the same cards, so nothing moves twice.
  function empty(el, loc) {
    var slot = document.createElement("span");
    if (el.parentElement && el.parentElement.hasAttribute("data-pile")) {
      slot.className = "slot empty";
    } else {
      slot.className = "slot removed";
      slot.setAttribute("data-loc", loc);
      slot.setAttribute("data-removed", "");
    }
    slot.setAttribute("aria-hidden", "true");
    return slot;
  }
  var ANSWERS = ["data-partners", "data-move", "data-note", "data-refusal", "data-nopair"];
  function quiet(el) {  // a card whose answers are old now
    el.classList.remove("selected", "partner", "playable", "pressed", "hinted", "refused");
    el.removeAttribute("aria-pressed");
    ANSWERS.forEach(function (a) { el.removeAttribute(a); });
  }
  function leave(el, shown) {
    shown.gone.push({ el: el, rect: el.getBoundingClientRect() });
    var loc = el.getAttribute("data-loc") || el.getAttribute("data-pos"), slot = empty(el, loc);
    el.replaceWith(slot);
    uncover(slot, loc);
  }
  // a pile whose cards lie face up (a Giza reserve) shows the card under the one that left: it
  // is the pile's top now, tapped as the next board's will be (the server drew it as a button
  // of the pile, its answers come one move ahead)
  function uncover(slot, loc) {
    var lower = slot.parentElement ? slot.parentElement.querySelectorAll('[data-next="' + CSS.escape(loc) + '"]') : [];
    var next = lower[lower.length - 1];
    if (!next) return;
    slot.remove();
    next.setAttribute("data-card", next.getAttribute("data-next-card"));
    ["data-next", "data-next-card", "tabindex", "aria-hidden", "disabled"].forEach(function (a) { next.removeAttribute(a); });
    next.classList.remove("under");
    next.type = "submit";
    next.name = "target";
    next.value = loc;
    next.setAttribute("data-loc", loc);
  }
  function goTo(el, to, shown) {
    var rect = el.getBoundingClientRect(), loc = to.getAttribute("data-loc") || to.getAttribute("data-pos");
    if (to.hasAttribute("data-pile")) {  // an empty pile: the card lies in it
      to = to.querySelector(".slot") || to.appendChild(document.createElement("span"));
      loc = to.parentElement.getAttribute("data-pile");
    }
    var from = el.getAttribute("data-loc") || el.getAttribute("data-pos");
    var attr = el.hasAttribute("data-loc") ? "data-loc" : "data-pos";
    quiet(el);
    if (to.hasAttribute("data-gap")) {  // the gap takes the card's old place
      quiet(to);
      to.classList.remove("dead");
      to.setAttribute("data-gap", "open");
      to.innerHTML = "";
      to.value = from;
      to.setAttribute("data-pos", from);
      el.replaceWith(to.cloneNode(true));
      to.replaceWith(el);
    } else {
      if (to.hasAttribute("data-card")) shown.gone.push({ el: to, rect: to.getBoundingClientRect(), covered: true });
      el.replaceWith(empty(el, from));
      to.replaceWith(el);
    }
    el.value = loc;
    el.setAttribute(attr, loc);
    shown.moved.push({ el: el, rect: rect });
  }
  // spec: what the server wrote for the move ("P23", "P22 P25", "S>W", "1.11>0.1")
  function show(spec, animate) {
    var shown = { gone: [], moved: [] };
    spec.split(" ").forEach(function (part) {
      var ends = part.split(">");
      var el = place(ends[0]);
      if (!el) return;
      if (ends.length < 2) { leave(el, shown); return; }
      var to = place(ends[1]) || document.querySelector('#board [data-loc="' + CSS.escape(ends[1]) + '"], #board [data-pile="' + CSS.escape(ends[1]) + '"]');
      if (to) goTo(el, to, shown);
    });
    if (window.TrettenMotion) window.TrettenMotion.ahead(animate ? shown : null);
  }

  // the answers of the board after `spec`, as the server wrote them one move ahead, put on the
  // page's places; none known for it (two moves ahead): the page keeps taps until a board comes
  function answersAfter(spec) {
    var next = data("data-ahead")[spec];
    known = !!next;
    if (!next) return;
    document.querySelectorAll('#board button[name="target"]').forEach(function (el) {
      var a = next[el.value];
      quiet(el);
      // a Gaps place as the next board draws it: a dead gap, a card in place
      if (next.dead && el.hasAttribute("data-gap")) {
        var dead = next.dead.indexOf(el.value) >= 0;
        el.classList.toggle("dead", dead);
        el.setAttribute("data-gap", dead ? "dead" : "open");
        el.innerHTML = dead ? '<span aria-hidden="true">×</span>' : "";
      }
      if (next.placed && !el.hasAttribute("data-gap")) el.classList.toggle("in-place", next.placed.indexOf(el.value) >= 0);
      if (!a) {
        el.setAttribute("data-refusal", next.stuck ? "stuck" : el.hasAttribute("data-gap") ? "dead_gap"
          : (next.covered || []).indexOf(el.value) >= 0 ? "covered" : next.unplayable || "not_playable");
        return;
      }
      // a card with partners, or one that goes alone, is playable; the stock's card that only
      // draws stays grey (its move is the draw's, not its own)
      if (a[0].length || a[1] === el.value) el.classList.add("playable");
      el.setAttribute("data-partners", a[0].join(" "));
      if (a[1]) el.setAttribute("data-move", a[1]);
      if (a[2]) el.setAttribute("data-note", a[2]);
    });
    // the pile's one button as the next board has it: Draw, or Turn over once the stock is drawn
    document.querySelectorAll('#board button[data-action="draw"], #board button[data-action="recycle"]').forEach(function (el) {
      var action = next.recycle && !next.draw ? "recycle" : next.draw && !next.recycle ? "draw" : el.value;
      var label = el.getAttribute("data-label-" + action), words = el.querySelector("span");
      if (action !== el.value && label && words) {
        el.value = action;
        el.setAttribute("data-action", action);
        el.firstChild.nodeValue = action === "recycle" ? "↺ " : "→ ";
        words.textContent = label;
      }
      var a = next[el.value];
      if (a) { el.setAttribute("data-move", a[1]); el.disabled = false; } else el.removeAttribute("data-move");
    });
    // the piles' counts and the figures as the next board prints them
    var counts = next.counts || {};
    Object.keys(counts).forEach(function (name) {
      document.querySelectorAll('#board [data-count="' + CSS.escape(name) + '"], #board [data-stat="' + CSS.escape(name) + '"]')
        .forEach(function (el) { el.textContent = counts[name]; });
    });
  }

  // A move goes to its form's own address. htmx sends a form's request to the address of the
  // button of the form pressed last (its formaction), and a press this page kept or turned down
  // (a Hint while moves waited) is still that button: the moves went to the hint's address.
  var sending = null;  // the address of the move being posted, while htmx prepares its request
  document.addEventListener("htmx:configRequest", function (event) {
    if (sending) event.detail.path = sending;
  });
  function send() {
    if (posted || !queue.length || others.length || retryTimer) return;
    var form = board() && board().querySelector("form");
    if (!form) return;
    var values = { action: "", target: "", sel: "", mid: queue[0].mid };
    Object.keys(queue[0].fields).forEach(function (k) { values[k] = queue[0].fields[k]; });
    // the form's ply and version: those of the board this move was made on (after a reload,
    // the board it was made on, kept with the queue: a game that moved on meanwhile refuses it)
    if (base) { values.ply = base.ply; values.version = base.version; }
    posted = true;
    sending = form.getAttribute("action");
    // a failure is handled by htmx:afterRequest; the promise's rejection is not an error
    htmx.ajax("POST", sending, { source: form, target: "#board", swap: "outerHTML", values: values })
      .catch(function () {});
    sending = null;
    // not on its way (htmx holds a request of a form with one on its way, and drops one whose
    // form has left the page, both without a word): the move would wait for ever, shown. It is
    // posted again in a moment; its `mid` makes a second post of it the same move
    if (!ourXhr) {
      posted = false;
      setTimeout(send, 250);
    }
  }
  // no answer: the move stays first in the queue and goes again after a pause (or the board is
  // fetched again, when it was another request that got none)
  function retryLater() {
    failures += 1;
    clearTimeout(retryTimer);
    var wait = RETRY_MS[Math.min(failures, RETRY_MS.length) - 1];
    retryTimer = setTimeout(function () { retryTimer = null; resume(); }, wait * (0.8 + Math.random() * 0.4));
  }
  // the network may be back (online, the page shown again): what waits goes now, or the board
  // is fetched if a request of it got no answer
  function resume() {
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (queue.length) { send(); return; }
    if (!stale || others.length || !board()) return;
    stale = false;
    htmx.ajax("GET", window.location.pathname + window.location.search, { target: "#board", swap: "outerHTML", select: "#board" })
      .catch(function () { stale = true; });
  }
  window.addEventListener("online", resume);
  window.addEventListener("offline", function () { render(); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) resume(); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") resume(); });

  // The queue outlives the page: kept in the tab's sessionStorage under the deal it was made on
  // (a deal ready to play is named by its link, a stored game by its id) until all is answered
  var KEPT = "tretten.waiting:", KEPT_FORM = 1;  // a page of another release reads only its own form
  var keptKey = null;
  // A reload (or any page left) just after a move was posted: the server may answer the reload
  // first, with the game before the move, and this page, still here until the new one comes, get
  // the move's answer after: had it forgotten the move then, the page that comes would show the
  // game a move behind what is stored, with nothing to send. From the moment the page is being
  // left, what it keeps stays as it was: the page that comes sends the move again (its `mid`
  // makes that the same move) or finds it stored. A press on this page after all (the
  // navigation stopped) makes it the player's again. Listened for only while moves are out: a
  // page that listens for "beforeunload" is not kept in some browsers' back-forward cache.
  var leaving = false;
  function onLeave() { leaving = true; }
  function stay() {
    if (!leaving) return;
    leaving = false;
    save();
  }
  document.addEventListener("pointerdown", stay, true);
  document.addEventListener("keydown", stay, true);
  window.addEventListener("pageshow", function (event) { if (event.persisted) stay(); });
  function save() {
    var b = board();
    if (leaving) return;
    if (queue.length) window.addEventListener("beforeunload", onLeave);
    else window.removeEventListener("beforeunload", onLeave);
    if (!b || !window.sessionStorage) return;
    var key = KEPT + b.getAttribute("data-deal");
    try {
      if (keptKey && keptKey !== key) sessionStorage.removeItem(keptKey);  // a first move's game has its id now
      keptKey = key;
      if (!queue.length && !later.length) { sessionStorage.removeItem(key); return; }
      sessionStorage.setItem(key, JSON.stringify({
        v: KEPT_FORM,
        base: base || { ply: b.getAttribute("data-ply"), version: b.getAttribute("data-version") },
        moves: queue.map(function (m) { return { mid: m.mid, spec: m.spec, fields: m.fields }; }),
        later: later
      }));
    } catch (e) { /* storage full or refused: the queue lives as long as the page */ }
  }
  function savedFor(b) {
    var found = null;
    try {
      var own = JSON.parse(sessionStorage.getItem(KEPT + b.getAttribute("data-deal")) || "null");
      if (own && own.v === KEPT_FORM) return { key: KEPT + b.getAttribute("data-deal"), kept: own };
      // a first move stored whose answer was lost: its queue is under the deal's link, and
      // the game's last change is that move
      var mid = b.getAttribute("data-mid");
      for (var i = 0; mid && i < sessionStorage.length && !found; i++) {
        var key = sessionStorage.key(i);
        if (key.indexOf(KEPT) !== 0) continue;
        var kept = JSON.parse(sessionStorage.getItem(key));
        if (kept && kept.v === KEPT_FORM && kept.moves.length && kept.moves[0].mid === mid) found = { key: key, kept: kept };
      }
    } catch (e) { return null; }
    return found;
  }
  // a page loaded with moves waiting (a reload): they are shown on the server's board and sent
  function restore() {
    var b = board();
    if (!b || !b.querySelector("form") || !window.sessionStorage) return;
    var found = savedFor(b);
    if (!found) return;
    keptKey = found.key;
    queue = found.kept.moves || [];
    later = found.kept.later || [];
    base = found.kept.base;
    if (queue.length && queue[0].mid && queue[0].mid === b.getAttribute("data-mid")) {
      queue.shift();  // stored: its answer was lost
      base = null;
    }
    var same = !base || (String(base.ply) === b.getAttribute("data-ply") && String(base.version) === b.getAttribute("data-version"));
    if (same) base = null;
    if (same) layQueue(); else known = false;  // made on another board: the server will say so
    save();
    render();
    send();
    // taps held behind a request the reload cut off are made now, in order (offline, the engine in
    // the page takes them, static/js/offline-play.js, or they wait for the network)
    if (!queue.length && navigator.onLine !== false) drain();
  }
  document.addEventListener("DOMContentLoaded", restore);

  // What waits, said: `data-pending` on the board, and the status beside it (its words drawn by
  // the server, templates/game.html) once something has waited SLOW_MS or the network failed
  function heldMoves() {  // kept taps as moves: where the board says cards pair, two card taps in a
    // row are one pair, but a card its board said plays alone (a king) is a move of its own
    var n = 0, open = false, pairs = !!board() && board().hasAttribute("data-taps-pair");
    later.forEach(function (t) {
      var single = !!t.actions || !!t.alone;
      if (single || !open) n += 1;
      open = pairs && !single && !open;
    });
    return n;
  }
  var slowTimer = null, spoken = "";
  function render() {
    var b = board();
    if (!b) return;
    var n = queue.length + heldMoves();
    b.setAttribute("data-pending", String(n));
    // the moves' count follows the table: the stored moves and those shown on their way (it
    // said 0 beside a draw shown while the network was gone); the server's board says it again
    var count = b.querySelector('[data-stat="ply"]'), shown = queue.filter(function (m) { return m.spec; }).length;
    if (count && shown) count.textContent = String(Number(b.getAttribute("data-ply") || 0) + shown);
    b.querySelectorAll(".held").forEach(function (el) { el.classList.remove("held"); });
    later.forEach(function (t) {
      var el = t.actions ? b.querySelector('[data-action="' + CSS.escape(t.actions[0]) + '"]') : place(t.value);
      if (el) el.classList.add("held");
    });
    if (!n) shownSince = 0; else if (!shownSince) shownSince = Date.now();
    var status = b.querySelector("[data-sync]"), region = document.getElementById("sync-said");
    var offline = failures > 0 || navigator.onLine === false;
    var visible = n > 0 && (offline || Date.now() - shownSince >= SLOW_MS);
    clearTimeout(slowTimer);
    if (n > 0 && !visible) slowTimer = setTimeout(render, SLOW_MS - (Date.now() - shownSince));
    if (!region) return;
    var text = visible ? region.getAttribute((offline ? "data-offline-" : "data-waiting-") + (n === 1 ? "one" : "many")).replace("{n}", n) : "";
    if (status) {
      status.hidden = !visible;
      status.textContent = text;
      status.classList.toggle("offline", offline);
    }
    if (text !== spoken || (!text && notMade && region.textContent !== notMade)) {
      // read out when it changes; "all saved" once, after it was said that moves wait, unless
      // kept taps were not made: then that is said (the toast's own reading, #announce, is
      // replaced by the announcement of the board that comes after it)
      region.textContent = text || notMade || (spoken ? region.getAttribute("data-saved") : "");
      spoken = text;
    }
  }
  // the frame that shows a move comes first; its answers and its request right after it
  function afterFrame(work) {
    var done = false, once = function () { if (!done) { done = true; work(); } };
    requestAnimationFrame(function () { setTimeout(once, 0); });
    setTimeout(once, 100);  // a page in the background draws no frames
  }
  function play(spec, fields) {
    select(null);
    show(spec, true);
    var to = spec.split(" ").map(function (part) { return part.split(">")[1]; }).filter(Boolean);
    arrived = to.length ? { place: to[to.length - 1], at: tapAt || Date.now() } : null;
    left = to.length ? { place: spec.split(" ")[0].split(">")[0], at: tapAt || Date.now() } : null;
    var move = { mid: newMid(), spec: spec, fields: fields };
    queue.push(move);
    known = false;
    // a move shown can be taken back: Undo takes a press at once (kept until the move's board
    // comes, which says whether it may be: a win is final), as it does once that board is in
    var undo = board().querySelector('[data-action="undo"]');
    if (undo) undo.disabled = false;
    save();
    render();
    afterFrame(function () {
      if (queue.length === 1 && queue[0] === move && !move.applied) answersAfter(spec);
      move.applied = true;
      send();
      drain();
    });
  }

  // whether a tap on `value` at `at` is the second half of a double tap whose first half made the
  // move that marked `mark` (`left` or `arrived`)
  function secondHalf(mark, value, at) {
    return !!mark && mark.place === value && at - mark.at < DOUBLE_TAP_MS;
  }
  function tap(el) {  // the press's words went in the click handler (hush)
    // only the tap right after a move can be the second half of its double tap (a 2 selected in
    // between, then the gap the move left: that gap is meant)
    var justLeft = left, justArrived = arrived;
    left = arrived = null;
    if (el.hasAttribute("data-gap") && secondHalf(justLeft, el.value, tapAt)) return;
    var chosen = current();
    if (chosen === el) { select(null); return; }
    if (chosen && words(chosen, "data-partners").indexOf(el.value) >= 0) {
      // a card and a gap: the card goes into the gap; two cards leave together
      var gap = chosen.hasAttribute("data-gap") ? chosen : el.hasAttribute("data-gap") ? el : null;
      var card = gap === chosen ? el : chosen;
      play(gap ? card.value + ">" + gap.value : [chosen.value, el.value].sort().join(" "), { target: el.value, sel: chosen.value });
      return;
    }
    if (el.hasAttribute("data-move")) { play(el.getAttribute("data-move"), { target: el.value }); return; }
    if (el.hasAttribute("data-partners")) {
      var nopair = chosen && el.getAttribute("data-nopair");
      var text = nopair ? JSON.parse(nopair)[chosen.value] : said(el.getAttribute("data-note"));
      select(el);
      if (text) say(el, text);
      return;
    }
    if (el.hasAttribute("data-refusal")) {
      if (secondHalf(justArrived, el.value, tapAt)) return;
      refuse(el, said(el.getAttribute("data-refusal")));
      return;
    }
    // a place without answers: the server says what the tap means (its board comes as a move's)
    known = false;
    queue.push({ mid: newMid(), spec: "", fields: { target: el.value, sel: chosen ? chosen.value : "" } });
    save();
    render();
    send();
  }

  // everything pressed on the board passes here first
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("#board button");
    // the stock's place with no card on it (the next one not shown yet, or none left): a tap
    // there is the pile's Draw (or its turnover), as on a deck
    var stock = !el && event.target.closest && event.target.closest('#board [data-pile="S"]');
    if (stock && !stock.querySelector('button[name="target"]')) {
      var pile = document.querySelector('#board [data-action="draw"]:not([disabled]), #board [data-action="recycle"]:not([disabled])');
      if (pile) pile.click();
      return;
    }
    if (!el || el.disabled || !window.htmx) return;
    var isTap = el.name === "target", action = el.getAttribute("data-action");
    if (!isTap && !action) return;
    // a board that another tab's change replaced came a moment ago: a press now was aimed at the
    // board before it (an Undo would take back the other tab's move); let go, its reason stays
    if (!draining && Date.now() - refusedAt < SETTLE_MS) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    hush();  // the words said before go with the next press (they stay through the boards that come)
    if (!draining) forgetNotMade();
    tapAt = keptAt || Date.now();
    keptAt = 0;
    // a press kept before this one (a draw whose card is not in sight yet, an Undo) is made
    // first: this one is kept behind it, unless it is that press, made in its turn
    if (!draining && later.length && !queue.length) drain();
    var now = !waiting() && (draining || !later.length) && (isTap || el.hasAttribute("data-move") || !queue.length);
    if (!now) {
      event.preventDefault();
      event.stopPropagation();
      // a button's move the page cannot show yet (a draw, a turnover, a redeal, an undo) is a
      // blind one: with the device offline it is not kept (taps made because "nothing happened"
      // drew a one-pass stock to its end unseen once the network came back, and Undos kept
      // unseen took back the moves stored before the ones waiting); not done, said so, as a
      // hint asked offline is. A card tapped is kept: the player saw the card
      if (!isTap && navigator.onLine === false) { notDoneOffline(el); return; }
      // a card held already is held once: tapped again because nothing seemed to happen, it
      // would be a second move, refused when its turn came
      if (isTap && later.some(function (t) { return !t.actions && t.value === el.value && t.card === el.getAttribute("data-card"); })) return;
      // ``alone``: the board drawn said a tap on it plays by itself (a king, the stock's card)
      later.push(isTap ? { value: el.value, card: el.getAttribute("data-card"), at: tapAt, alone: el.hasAttribute("data-move") }
        : pressKept(el, action));
      save();
      render();
      return;
    }
    if (!isTap) lastAction = { name: action, at: tapAt };
    // undo, hint, new deal…: htmx posts them. Undo and redo change the board under a
    // selection: it goes (a pyramid card kept selected paired with the next card tapped)
    if (action === "undo" || action === "redo") select(null);
    if (!isTap && !el.hasAttribute("data-move")) return;
    event.preventDefault();
    event.stopPropagation();
    if (isTap) tap(el); else play(el.getAttribute("data-move"), { action: el.value });
  }, true);

  // a blind press (a move the page cannot show yet) with the device offline: not kept, said not
  // done; a draw, a turnover or a redeal says why (the cards it brings are the server's)
  var BRINGS_CARDS = ["draw", "recycle", "redeal"];
  function notDoneOffline(el) {
    var region = document.getElementById("sync-said");
    var brings = BRINGS_CARDS.indexOf(el.getAttribute("data-action")) >= 0;
    var said = refuse(el, region ? region.getAttribute(offlineStarting() ? "data-offline-starting"
      : brings ? "data-unseen-offline" : "data-unanswered") : "");
    if (said) said.setAttribute("data-offline", "");  // not laid into a board the network brings back
  }
  // offline play is on, its engine still starting (seconds after a page loads): a press refused
  // meanwhile says so, not "wait for the network", which was wrong a moment later
  function offlineStarting() {
    return navigator.onLine === false && !!window.TrettenOfflinePlay && !window.TrettenOfflinePlay.active();
  }
  // A button kept: its name, and where the button posts by itself (its own address, as
  // Auto-finish's: it sends only the board's form, no value of its own) on which game
  function pressKept(el, action) {
    var kept = { actions: [action], at: tapAt };
    if (el.getAttribute("hx-post") && !el.name) {
      kept.post = el.getAttribute("hx-post");
      kept.game = board().getAttribute("data-game-id");
    }
    return kept;
  }
  // A kept button of its own address whose board came without it (Auto-finish: its offer comes
  // by a request of its own after the board) is posted there all the same, on the board that
  // came (its ply and version): the server does it if it still may, or says why not. Not so its
  // double press, made by the first, nor on another game.
  function postedKept(tap) {
    var b = board();
    return !!tap.post && !secondPress(tap) && !!b && !!b.querySelector("form") &&
      b.getAttribute("data-game-id") === tap.game &&
      !tap.actions.some(function (name) { return b.querySelector('[data-action="' + CSS.escape(name) + '"]'); });
  }
  function postKept(tap) {
    var count = others.length;
    lastAction = { name: tap.actions[0], at: tap.at };
    sending = tap.post;
    htmx.ajax("POST", tap.post, { source: board().querySelector("form"), target: "#board", swap: "outerHTML" })
      .catch(function () {});
    sending = null;
    if (others.length > count) return;
    // not on its way: htmx holds a request of a form with one on its way, so it is kept and
    // pressed when that one ends (its afterRequest drains the kept presses); with none, not done
    if (others.length) later.unshift(tap);
    else gone(tap);
  }

  // the kept taps, made in order, until one needs a board that has not come
  function drain() {
    var before = later.length;
    while (later.length && !waiting()) {
      var next = later[0], el = null;
      if (next.actions) {
        for (var i = 0; i < next.actions.length && !el; i++) {
          el = document.querySelector('#board [data-action="' + CSS.escape(next.actions[i]) + '"]:not([disabled])');
        }
        if (el && queue.length && !el.hasAttribute("data-move")) return;  // waits for the queue
        if (!el && postedKept(next)) {
          if (queue.length) return;  // waits for the queue
          later.shift();
          postKept(next);
          if (later[0] === next) break;  // pressed once the request on its way ends
          continue;
        }
      } else {
        el = place(next.value);
        if (el && next.card && el.getAttribute("data-card") !== next.card) el = null;  // not the card tapped
        if (el && el.disabled) el = null;
      }
      later.shift();
      if (el) { keptAt = next.at; draining = true; el.click(); draining = false; keptAt = 0; }
      else gone(next);
    }
    if (later.length !== before) { save(); render(); }
  }
  // A kept tap whose card or button is no longer there when its turn comes (a draw made before
  // it covered the waste's card tapped; the stock ran out) is not made, and neither are the taps
  // after it, meant for the table the player saw; said so beside its place. The second half of a
  // double tap on a card one tap moved lands where the card was: let go, as it is when not kept
  function gone(tap) {
    later = [];
    if (!tap.actions && secondHalf(left, tap.value, tap.at)) return;
    if (secondPress(tap)) return;
    var at = tap.actions ? document.querySelector('#board [data-action="' + CSS.escape(tap.actions[0]) + '"]') : place(tap.value);
    // a button greyed on the board that came says why (an undo pressed while the winning move was
    // on its way: a win is final)
    var why = at && at.disabled ? at.getAttribute("data-why") : "";
    var text = why || keptNotMade("data-kept-gone", "");
    notMade = text;
    say(at || board(), text);
  }
  // the second half of a double press of a button made by the first (Auto-finish, a confirm)
  function secondPress(tap) {
    return !!tap.actions && !!lastAction && tap.actions.indexOf(lastAction.name) >= 0 && tap.at - lastAction.at < DOUBLE_TAP_MS;
  }
  // the words for kept taps not made: "Not done: …" (#sync-said's ``words``: the card had gone, or
  // the board refused the tap), and the reason the board gave for the tap whose turn it was, if
  // any; the status says them too (render), not "All moves saved."
  function keptNotMade(words, reason) {
    var region = document.getElementById("sync-said");
    notMade = [region ? region.getAttribute(words) : "", reason].filter(Boolean).join(" ");
    return notMade;
  }
  // the next press: the words of taps not made were read (the toast goes with hush())
  function forgetNotMade() {
    if (!notMade) return;
    var region = document.getElementById("sync-said");
    if (region && region.textContent === notMade) region.textContent = "";
    notMade = "";
  }

  function forBoard(event) {  // a request that brings a new board (not the solver's status within it)
    var t = event.detail && event.detail.target;
    return !!(t && t.id === "board");
  }
  var ourXhr = null, keptSelection = null;
  function ours(event) { return !!ourXhr && event.detail.xhr === ourXhr; }
  document.addEventListener("htmx:beforeSend", function (event) {
    if (!forBoard(event)) return;
    if (posted && !ourXhr && event.detail.elt && event.detail.elt.tagName === "FORM") {
      ourXhr = event.detail.xhr;
      ourXhr.timeout = TIMEOUT_MS;  // a connection that hangs answers nothing: sent again
    } else {
      others.push(event.detail.xhr);
    }
  });
  var ownWords = null;  // the page's own words on the board being replaced
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!forBoard(event)) return;
    // the place and its card: a board after an undo may hold another card there (the stock's)
    keptSelection = current() ? { place: current().value, card: current().getAttribute("data-card") } : null;
    ownWords = board().querySelector(".toast[data-near]");
  });
  // a board came: the moves still on their way are shown on it again, with the answers after them
  // the moves still on their way, shown on the board laid in, with the answers after them
  function layQueue() {
    queue.forEach(function (move) { if (move.spec) show(move.spec, false); });
    known = true;
    if (queue.length === 1 && queue[0].spec) { answersAfter(queue[0].spec); queue[0].applied = true; }
    else if (queue.length) known = false;
  }
  var laid = null;  // the answer last laid in: htmx tells of a swap twice (on the form, gone, and on the board)
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!forBoard(event)) return;
    var xhr = event.detail.xhr, refused = xhr && xhr.status >= 400;
    if (xhr && xhr === laid) return;
    laid = xhr;
    stale = false;
    failures = 0;  // a board came: the network answers
    var moveAnswered = ours(event);
    if (moveAnswered) {
      posted = false;
      ourXhr = null;
      base = null;
      var answered = queue.shift();
      // stored after all (a first try's answer was lost while it was sent again, and the second
      // met the first): the board holds it, so this is its answer and no refusal
      if (refused && answered && answered.mid && board().getAttribute("data-mid") === answered.mid) {
        refused = false;
        board().querySelectorAll(".toast[data-error]").forEach(function (t) { t.remove(); });
      }
    }
    if (refused) { queue = []; later = []; posted = false; keptSelection = null; base = null; }
    if (refused && xhr.status === 409) refusedAt = Date.now();  // another tab moved: this is its board
    // the page's words stay until the next tap in the board that answers a move (made just before
    // them, it comes a round trip later), unless it brings words of its own (a refusal, a note);
    // a board fetched again (the network back, an undo) is another table: they go
    if (ownWords && moveAnswered && !refused && !board().querySelector(".toast") && !ownWords.hasAttribute("data-offline")) {
      board().appendChild(ownWords);
    }
    ownWords = null;
    layQueue();
    save();
    render();
    // a card selected while the board was on its way stays selected, if it still can be
    var kept = known && keptSelection && !current() ? place(keptSelection.place) : null;
    if (kept && kept.getAttribute("data-card") !== keptSelection.card) kept = null;
    keptSelection = null;
    if (kept && kept.hasAttribute("data-partners")) select(kept);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!forBoard(event)) return;
    var xhr = event.detail.xhr, failed = !xhr || xhr.status === 0 || xhr.status >= 500;
    if (ours(event) || (posted && !ourXhr)) {
      if (failed) {  // no answer: the move waits, shown, and goes again
        posted = false;
        ourXhr = null;
        retryLater();
        render();
        return;
      }
    } else if (others.indexOf(xhr) >= 0) {
      others.splice(others.indexOf(xhr), 1);
      if (failed) unanswered(event);
    }
    setTimeout(function () { send(); drain(); }, 0);
  });
  // an action of htmx's own (a hint, a new deal, undo…) got no answer: not done, and said so
  // beside what was pressed; the board is fetched again (it may have been done after all) after
  // a pause, or when the network is back
  function unanswered(event) {
    stale = true;
    retryLater();
    var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var el = (trigger && trigger.submitter) || event.detail.elt;
    var region = document.getElementById("sync-said");
    if (el && el.closest && el.closest("#board") && region) {
      say(el, region.getAttribute(offlineStarting() ? "data-offline-starting" : "data-unanswered"));
    }
    render();
  }
  document.addEventListener("htmx:afterSettle", function (event) { if (forBoard(event)) drain(); });

  // The solver takes one search of a player at a time: "still winnable?", the analysis and a
  // hint, each a request of its own, wait for the one under way (a move no longer does, so
  // they can meet) instead of being told the solver is busy.
  var solving = null, parked = [];
  document.addEventListener("htmx:beforeRequest", function (event) {
    var el = event.detail.elt;
    if (!el || !el.matches || !el.matches("#solver-status, #analysis, #board [data-action='hint']")) return;
    if (solving) {
      event.preventDefault();
      parked.push(el.id ? "#" + el.id : "#board [data-action='hint']");
      return;
    }
    var xhr = event.detail.xhr;
    solving = xhr;
    xhr.addEventListener("loadend", function () {
      if (solving === xhr) solving = null;
      var next = parked.shift(), again = next && document.querySelector(next);
      if (!again) return;
      if (again.id) htmx.ajax("GET", again.getAttribute("hx-get"), { source: again, target: again, swap: "outerHTML" }).catch(function () {});
      else again.click();
    });
  });

  // for tests and tools: whether the page still waits for the server
  window.TrettenBoard = {
    waiting: function () { return waiting() || queue.length > 0 || later.length > 0; },
    debug: function () { return { queue: queue, posted: posted, others: others.length, known: known, later: later, failures: failures }; },
    // the page plays on by itself offline (static/js/offline-play.js): it takes what waits here,
    // the moves shown and the board they were made on; none while a request is on its way
    handOver: function () {
      var b = board();
      if (posted || others.length || !b) return null;
      var out = { base: base || { ply: b.getAttribute("data-ply"), version: b.getAttribute("data-version") },
        moves: queue.map(function (m) { return { mid: m.mid, spec: m.spec, fields: m.fields }; }), later: later,
        failures: failures };
      clearTimeout(retryTimer);
      retryTimer = null;
      queue = []; later = []; base = null; known = true; stale = false; failures = 0;
      save();
      render();
      return out;
    },
    // ...and gives it back when its engine could not play them (the engine did not start or
    // answer): they wait here again, shown as they were, and are sent when the network is back
    takeBack: function (handed) {
      queue = handed.moves.concat(queue);
      later = (handed.later || []).concat(later);
      failures = handed.failures || 0;  // the pauses between tries go on growing
      if (queue.length) { base = handed.base; known = false; retryLater(); }
      save();
      render();
      if (!queue.length) drain();
    },
    // a key pressed (d: draw or turn over) while its answer is not known: kept, in order
    keep: function (names) {
      var button = null;
      names.forEach(function (name) { button = button || document.querySelector('#board [data-action="' + name + '"]'); });
      // a key for a button this board has not (Gaps has no draw): nothing to keep or press
      if (!button) return true;
      var ready = names.some(function (name) {
        return !!document.querySelector('#board [data-action="' + name + '"][data-move]:not([disabled])');
      });
      if (!waiting() && (ready || !queue.length)) return false;
      // as a press of its button: a blind draw with the device offline is not kept but said not
      // done, or the presses would draw cards unseen once the network came back
      hush();
      if (navigator.onLine === false) { notDoneOffline(button); return true; }
      later.push({ actions: names, at: Date.now() });
      save();
      render();
      return true;
    }
  };
})();

// The board's feel (controls): a tapped card is pressed at once; a tap the server turned down
// shakes that card (the toast says why); on a desktop a card dragged onto another card or a gap
// is played as the two taps it stands for: the first selects, and only if it is then selected,
// the second is the drop target. No rules here.
(function () {
  "use strict";

  var TARGET = '#board button[name="target"], #board .pile-action';
  var lastTap = null;

  // A mouse press lasts a tenth of a second or more, and a board can be laid in meanwhile (the
  // server's answer to the move before, or offline the engine's), or a replay's frame at its next
  // step: the card under the pointer is then the new board's copy of it, and Chromium fires no
  // click for a press whose element went, nor for one whose element a swap kept but moved (the
  // replay's Play/Pause, hx-preserve). Where the press ends on the same place showing the same
  // card (or the same button or link), that is the tap, made here; anywhere else nothing is
  // guessed. A finger's tap needs none of this: its click goes where the finger lifts.
  var PRESSED = "#board button, #board a, #board [data-pile], #replay button, #replay a";
  var IS = ["name", "value", "href", "data-loc", "data-pos", "data-card", "data-action", "data-pile"];
  var press = null, swapped = false, made = null;
  function same(a, b) {
    return a.tagName === b.tagName && IS.every(function (name) { return a.getAttribute(name) === b.getAttribute(name); });
  }
  document.addEventListener("pointerdown", function (event) {
    var el = event.pointerType === "mouse" && event.button === 0 && event.target.closest && event.target.closest(PRESSED);
    press = el || null;
    swapped = false;
  }, true);
  document.addEventListener("htmx:afterSwap", function () { if (press) swapped = true; });
  document.addEventListener("pointerup", function (event) {
    var was = press, el = event.target.closest && event.target.closest(PRESSED);
    press = null;
    if (!was || !el || el.disabled || (was === el ? !swapped : was.isConnected || !same(was, el))) return;
    made = el;  // made now, in its turn: before any tap after it
    setTimeout(function () { made = null; }, 0);
    el.click();
  }, true);
  // a browser that clicks after all, on the new copy, is not heard twice (before offline play's own)
  window.addEventListener("click", function (event) {
    if (event.isTrusted && made && made.contains(event.target)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

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
    // a card already selected: the first tap would only deselect it
    if (!source.classList.contains("selected")) source.click();
    // the page selects at once; if the first tap was a move, the board is on its way and the
    // drop is kept for the board that comes (where that place may mean something else)
    if (!source.classList.contains("selected")) return;
    var target = document.querySelector('#board button[name="target"][value="' + CSS.escape(to) + '"]');
    if (target && !target.disabled) target.click();
  });
})();

// Offline: docs/architecture.md, "Offline" (static/js/offline.js, once the page is shown)
(function () {
  var sw = navigator.serviceWorker;
  if (!sw) return;
  window.TrettenHadWorker = !!sw.controller;
  addEventListener("load", function () {
    // offline.js asks this registration, not getRegistration(): on a busy phone the script may
    // run before the browser has made the registration, and would find none
    window.TrettenRegistered = sw.register("/sw.js");
    window.TrettenRegistered.catch(function () {});
    var script = document.createElement("script");
    script.src = "/static/js/offline.js";
    script.setAttribute("data-added", "");  // not in the page's copy for offline (offline.js)
    document.head.appendChild(script);
  });
})();
