// Whole games offline (issue 38; docs/lifecycle.md, "Offline and back"). With the rules in the
// page (static/js/engine.js: the app's own engine, loaded once the player turned offline play on
// or installed the app), a page that loses the network plays on by itself: each tap is asked of
// the engine, its board laid in, and every change that moved the game (a move, undo, redo, a
// Gaps redeal, the first move of a new deal whose seed the page picked) is queued, in order,
// with its own id (`mid`) and the form's fields, in localStorage so that neither a reload nor a
// closed tab loses it. When the network is back a stored game's waiting changes are posted
// together (`/games/{id}/changes`: one round trip, not one per change; a new deal's first move
// goes alone to its link first), on the board the page last had: the server judges every one in
// order, as if it were made now, marks the game played offline and says how many it took. A
// change it refuses stops the rest; the page shows the server's board with the reason. Then the
// page is the server's board.
// Nothing here decides a rule: the engine answers, the server judges. Hints and the solver need
// the network, and say so.
(function () {
  "use strict";

  // Each tab keeps its own queue, under its own key (KEY + ":" + the tab's id, the id in the tab's
  // sessionStorage, so a reload finds it). Two tabs playing offline at once then never write over
  // each other's, and a tab closed (or dropped by a phone's browser) with changes waiting leaves
  // them to the next page: a tab holds a Web Lock named by its key while it has changes waiting,
  // so a waiting key whose lock is free is a closed tab's, and a page that begins with nothing of
  // its own waiting takes it over (`adopt`). A browser without Web Locks takes one over online
  // only (the tab may live: the server answers a change sent twice from what it stored).
  var KEY = "tretten.offline.play", FORM = 1, TAB = "tretten.offline.tab";
  var mine = null;      // this tab's key, once it is known (`claim`)
  var RETRY_MS = [1000, 2000, 4000];
  var BATCH = 200;  // changes per request at most (app.services.play.returned.MAX_CHANGES)
  var state = null;     // {v, game, deal, queue: [{mid, deal, fields}], ids: {deal: game id}, at: {deal: {ply, version}}, page}
  var active = false;   // the page plays on by itself
  var syncing = false, failures = 0, timer = null;
  // the action whose question was said as a toast (a page without the question's buttons): its
  // next press is the yes. With the buttons only the question's own yes is one (a double press of
  // New deal dealt anew, unread)
  var confirming = false;
  var refocus = null;  // the action whose question was answered: its button takes the focus back

  function board() { return document.getElementById("board"); }
  function region() { return document.getElementById("sync-said"); }
  function words(name) { var r = region(); return r ? r.getAttribute(name) || "" : ""; }
  function engine() { return window.TrettenEngine || null; }
  function newMid() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  // a seed as the server picks one for a new deal (app/services/play/games.py, random_seed):
  // below a billion, short enough to read aloud and to fit the phone's line beside "Copy link"
  // (any of the 2^64 took 20 digits); drawn without bias, the draws of 4e9 and over again
  function newSeed() {
    var w = new Uint32Array(1);
    do { window.crypto.getRandomValues(w); } while (w[0] >= 4000000000);
    return String(w[0] % 1000000000);
  }
  // a player dealt winnable deals only is dealt one of those the server shipped proven (the page
  // has no solver to prove one: the page lists those the player has no game of), any but the
  // deal on the table
  function provenSeed(current) {
    var seeds = words("data-offline-seeds").split(" ").filter(function (seed) {
      return seed && seed !== String(current);
    });
    if (!seeds.length) return null;
    var w = new Uint32Array(1);
    window.crypto.getRandomValues(w);
    return seeds[w[0] % seeds.length];
  }
  function load(key) {
    try {
      var kept = JSON.parse(localStorage.getItem(key || mine) || "null");
      return kept && kept.v === FORM ? kept : null;
    } catch (e) { return null; }
  }
  // true once written (false: the queue lives as long as the page)
  function save() {
    if (!mine) return false;  // the tab's key is not yet its own: saved once it is (claim)
    var keeping = state && (state.queue.length || active);
    if (keeping) holdOwn();  // asked before the key shows, so no page takes it as a closed tab's
    try {
      if (keeping) localStorage.setItem(mine, JSON.stringify(state));
      else localStorage.removeItem(mine);
    } catch (e) { return false; }
    if (!keeping) letGo();
    return true;
  }

  // The tab's lock, held while it has changes waiting (only then: a page holding a lock is never
  // kept in the browser's back-forward cache). `held`: {wanted, go}, go lets the lock go once given
  var held = null;
  function holdOwn() {
    if (!mine || !navigator.locks) return;
    if (held) { held.wanted = true; return; }
    var h = held = { wanted: true, go: null };
    navigator.locks.request(mine, function () {
      return new Promise(function (go) {
        h.go = go;
        if (!h.wanted) go();  // let go before it was given
      });
    }).catch(function () { if (held === h) held = null; });
  }
  function letGo() {
    if (!held) return;
    var h = held;
    held = null;
    h.wanted = false;
    if (h.go) h.go();
  }
  // this tab's key: the id it had, when changes of it wait (a reload), unless a live tab holds
  // its lock (a duplicated tab copied this one's sessionStorage; for a moment, the page a reload
  // replaces); else a new one (a duplicated tab's changes never go under the other's key)
  function claim() {
    var id = null;
    try { id = sessionStorage.getItem(TAB); } catch (e) { /* storage refused */ }
    var own = function (fresh) {
      try { sessionStorage.setItem(TAB, fresh); } catch (e) { /* storage refused */ }
      mine = KEY + ":" + fresh;
    };
    var waits = function () { var kept = load(); return !!(kept && kept.queue.length); };
    if (!id) { own(newMid()); return Promise.resolve(); }
    if (!navigator.locks) {
      own(id);
      if (!waits()) own(newMid());
      return Promise.resolve();
    }
    return new Promise(function (resolve) {
      var stop = new AbortController();
      setTimeout(function () { stop.abort(); }, 2000);
      navigator.locks.request(KEY + ":" + id, { signal: stop.signal }, function () {
        own(id);
        if (!waits()) { own(newMid()); resolve(); return null; }  // nothing waiting: let go
        resolve();
        return new Promise(function (go) { held = { wanted: true, go: go }; });
      }).catch(function () { own(newMid()); resolve(); });
    });
  }
  // the changes a closed tab left waiting (or the one queue all tabs shared before), taken over
  // as the page begins with none of its own: one queue, sent (or offline, played on) as this
  // tab's, as a reload's page does with its own
  var adopting = null;
  function adopt() {
    if (!adopting) adopting = adoptOne().then(function (got) { adopting = null; return got; });
    return adopting;
  }
  function busy() { return active || (state && state.queue.length); }
  // moves app.js keeps for the board shown (made before the engine was ready) are that game's:
  // nothing is taken over while they wait. Without Web Locks a closed tab's key cannot be told
  // from a living one's: taken online only, where the living tab sends its own too and the
  // server answers a change sent twice from what it stored
  function appWaits() { return !!(window.TrettenBoard && TrettenBoard.waiting && TrettenBoard.waiting()); }
  function adoptOne() {
    if (!mine || busy() || appWaits()) return Promise.resolve(false);
    var any = !!navigator.locks || navigator.onLine !== false;
    var keys = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (key !== mine && (key === KEY || (key.indexOf(KEY + ":") === 0 && any))) keys.push(key);
      }
    } catch (e) { return Promise.resolve(false); }
    var next = function () {
      if (!keys.length || busy()) return Promise.resolve(false);
      var key = keys.shift();
      var take = function () {
        if (busy() || appWaits()) return false;
        var left = load(key);
        if (!left || !left.queue.length) { try { localStorage.removeItem(key); } catch (e) { /* storage refused */ } return false; }
        state = left;
        if (!save()) { state = null; return false; }  // not copied: left where it is
        try { localStorage.removeItem(key); } catch (e) { /* storage refused */ }
        return true;
      };
      if (key === KEY || !navigator.locks) return Promise.resolve(take()).then(function (got) { return got || next(); });
      return new Promise(function (resolve) {
        navigator.locks.request(key, { ifAvailable: true }, function (lock) {
          resolve(lock ? take() : false);  // the lock free: its tab is gone
        }).catch(function () { resolve(false); });
      }).then(function (got) { return got || next(); });
    };
    return next();
  }
  var claimed = claim();
  // once the tab's key is its own: what was made before is saved under it
  claimed.then(function () { if (state) save(); });

  // the deal a board is of: a stored game by its id, a deal ready to play by its link (its first
  // move goes there, and its answer names the game the rest goes to)
  function dealOf(b) {
    var id = b.getAttribute("data-game-id");
    return id ? "g:" + id : "p:" + b.getAttribute("data-deal");
  }
  // The server's last board, noted as it is laid: the page's kept copy (offline.js) is made when
  // the page is idle, so a reload right after an answer may find the copy one board behind
  function noteBoard() {
    var b = board();
    if (active || !b || !b.getAttribute("data-game-id") || !b.getAttribute("data-engine-game")) return;
    try {
      localStorage.setItem(KEY + ".last", JSON.stringify({ id: b.getAttribute("data-game-id"),
        game: b.getAttribute("data-engine-game"), ply: b.getAttribute("data-ply"), version: b.getAttribute("data-version") }));
    } catch (e) { /* private mode */ }
  }
  document.addEventListener("htmx:afterSettle", noteBoard);
  function fromBoard(b) {
    var seen = { game: b.getAttribute("data-engine-game"), ply: b.getAttribute("data-ply"), version: b.getAttribute("data-version") };
    try {
      var last = JSON.parse(localStorage.getItem(KEY + ".last") || "null");
      if (last && last.id === b.getAttribute("data-game-id") && Number(last.version) > Number(seen.version)) seen = last;
    } catch (e) { /* private mode */ }
    var game = JSON.parse(seen.game || "null");
    if (!game) return null;
    var deal = dealOf(b), at = {};
    if (b.getAttribute("data-game-id")) at[deal] = { ply: seen.ply, version: seen.version };
    var ids = {};
    if (b.getAttribute("data-game-id")) ids[deal] = b.getAttribute("data-game-id");
    // a stored game is played under its own rules (a preset's may have changed since)
    return { v: FORM, game: { preset: game.preset, deal: game.deal, rules: game.rules, moves: game.moves, cursor: game.cursor },
      deal: deal, queue: [], ids: ids, at: at, page: window.location.pathname + window.location.search };
  }

  // ---------------------------------------------------------------- the page plays on

  // The engine's board in place of the server's: the same macros drew it (app/web/views/offline_engine.py)
  function lay(answer) {
    var b = board(), parts = answer.board || {};
    var table = b.querySelector(".table"), controls = table && table.querySelector(".controls");
    if (!table) return;
    b.querySelectorAll(".toast, .banner, .hint-note, #solver-status, .end-details, [data-cascade]").forEach(function (el) { el.remove(); });
    Array.prototype.slice.call(table.children).forEach(function (el) { if (el !== controls) el.remove(); });
    table.insertAdjacentHTML("afterbegin", parts.layout || "");
    if (controls) {
      var own = controls.querySelectorAll('[data-action]:not([data-action="undo"]):not([data-action="redo"]):not([data-action="hint"])');
      own.forEach(function (el) { if (!el.closest(".assist")) el.remove(); });
      var redo = controls.querySelector('[data-action="redo"]');
      if (redo && parts.controls) redo.insertAdjacentHTML("afterend", parts.controls);
      var undo = controls.querySelector('[data-action="undo"]');
      if (undo) undo.disabled = !answer.can_undo;
      if (redo) redo.disabled = !answer.can_redo;
    }
    var stats = b.querySelector("dl.stats");
    if (stats && parts.figures) {
      var holder = document.createElement("dl");
      holder.innerHTML = parts.figures;
      Array.prototype.slice.call(holder.children).reverse().forEach(function (div) {
        var dd = div.querySelector("[data-stat]"), old = dd && stats.querySelector('[data-stat="' + dd.getAttribute("data-stat") + '"]');
        if (old) old.closest("div").replaceWith(div); else stats.insertBefore(div, stats.firstChild);
      });
    }
    var ply = b.querySelector('[data-stat="ply"]');
    if (ply) ply.textContent = answer.cursor;
    var score = b.querySelector('[data-stat="score"]');
    if (score) score.textContent = "–";  // counted by the server when the moves are back
    var time = b.querySelector('[data-stat="time"]');  // the device's clock is not trusted
    if (time && !time.querySelector("[data-offline-time]")) {
      var said = document.createElement("span");
      said.setAttribute("data-offline-time", "");
      said.textContent = words("data-offline-time");
      time.replaceChildren(said);
    }
    b.setAttribute("data-status", answer.status);
    b.setAttribute("data-selected", answer.selected || "");
    b.setAttribute("data-offline-play", "");
    if (answer.status !== "playing") ended(b, answer);
    b.querySelectorAll("[data-ahead]").forEach(function (el) { el.removeAttribute("data-ahead"); });
  }
  function ended(b, answer) {
    var banner = document.createElement("div");
    banner.className = "banner " + answer.status;
    banner.setAttribute("role", "status");
    banner.setAttribute("data-banner", answer.status);
    var p = document.createElement("p"), strong = document.createElement("strong");
    strong.textContent = words(answer.status === "won" ? "data-offline-won" : "data-offline-lost");
    p.appendChild(strong);
    banner.appendChild(p);
    var actions = document.createElement("p");
    actions.className = "banner-actions";
    var next = document.createElement("button");
    next.type = "button";
    next.className = "button primary";
    next.setAttribute("data-action", "new");
    next.textContent = words("data-offline-new-deal");
    actions.appendChild(next);
    banner.appendChild(actions);
    var table = b.querySelector(".table");
    table.parentNode.insertBefore(banner, table);
    // a finished game asks the solver nothing, as the server's board of it shows no hint
    b.querySelectorAll(".assist").forEach(function (el) { el.hidden = true; });
    if (answer.status === "won" && answer.board && answer.board.cascade) banner.insertAdjacentHTML("beforebegin", answer.board.cascade);
  }
  function toast(el, text) {
    document.querySelectorAll("#board .toast").forEach(function (t) { t.remove(); });
    if (!text) return;
    var t = document.createElement("p");
    t.className = "toast message near";
    t.setAttribute("data-offline-note", "");
    t.setAttribute("aria-hidden", "true");
    t.textContent = text;
    board().appendChild(t);
    if (el && window.TrettenTable) window.TrettenTable.placeToast(t, el.getBoundingClientRect());
    var announce = document.getElementById("announce");
    if (announce) announce.textContent = text;
  }
  // an action's question, as the server's board asks it: its words and buttons, drawn by the
  // server with the page (templates/_confirm.html); a toast where the page has none
  function askFirst(name, el, text) {
    var kept = document.getElementById("offline-confirms");
    var banner = kept && kept.content.querySelector('[data-confirm="' + name + '"]');
    if (!banner) { confirming = name; toast(el, text); return; }
    dropQuestions();
    document.querySelectorAll("#board .toast").forEach(function (t) { t.remove(); });
    var shown = banner.cloneNode(true);
    board().appendChild(shown);
    var announce = document.getElementById("announce");
    if (announce) announce.textContent = text || "";
    var first = shown.querySelector("button");
    if (first) first.focus();
  }
  function dropQuestions() {  // ours, and one the server's board asked before the network went
    document.querySelectorAll("#board [data-confirm]").forEach(function (q) { q.remove(); });
  }
  // the deal's number beside the share link: the game the page plays (a page kept before a new
  // deal made offline, reloaded, still named the deal before it)
  function showSeed() {
    var seed = state && state.game.deal && state.game.deal.seed, shown = document.querySelector("#share [data-seed]");
    if (seed && shown && shown.getAttribute("data-seed") !== String(seed)) {
      shown.textContent = seed;
      shown.setAttribute("data-seed", seed);
      // and the link to share: the deal's own address, on the host the page's link names
      document.querySelectorAll("#share [data-share-url], #share [data-share]").forEach(function (a) {
        var url = new URL(a.getAttribute("href") || a.getAttribute("data-share"), location.href);
        url.pathname = "/play/" + state.game.preset + "/" + seed;
        url.search = "";
        a.setAttribute(a.hasAttribute("href") ? "href" : "data-share", url.href);
      });
    }
  }
  function focusBack() {
    var name = refocus, el = name && board() && board().querySelector('[data-action="' + name + '"]:not([disabled])');
    refocus = null;
    if (el) el.focus();
  }
  function status() {
    var b = board(), line = b && b.querySelector("[data-sync]");
    var n = state ? state.queue.length : 0;
    b && b.setAttribute("data-pending", String(n));
    var text = active ? words(n === 0 ? "data-offline-play-none" : n === 1 ? "data-offline-play-one" : "data-offline-play-many").replace("{n}", n) : "";
    if (line) {
      line.hidden = !text;
      line.textContent = text;
      line.classList.toggle("offline", !!text);
      line.classList.toggle("playing-offline", !!text);  // a line of the page while it plays by itself
    }
    var r = region();
    if (r && text && r.textContent !== text) r.textContent = text;
  }

  var asking = null;  // the engine is answering a tap: taps meanwhile wait their turn, in order
  function ask(pressed, el) {
    var e = engine();
    if (!e || !state) return;
    var run = function () {
      if (!active || !state) return null;
      var before = state.game, tap = typeof pressed === "function" ? pressed() : pressed;
      if (!tap) return null;
      var request = Object.assign({}, before, { sel: before.sel || "", language: document.documentElement.lang,
        four_colour: document.body.classList.contains("deck-4") });
      return e.apply(request, tap.engine).then(function (answer) {
        if (!active || !state) return;  // a change refused meanwhile: the server's board is in
        var moved = answer.cursor !== before.cursor || answer.moves.join(" ") !== before.moves.join(" ");
        state.game = { preset: before.preset, deal: before.deal, rules: before.rules, moves: answer.moves, cursor: answer.cursor,
          sel: moved ? "" : answer.selected || "" };
        if (moved) state.queue.push({ mid: newMid(), deal: state.deal, fields: tap.fields });
        save();
        lay(answer);
        if (!moved && answer.note === "confirm_redeal") askFirst("redeal", el, answer.note_words);
        else if (!moved && answer.note_words) toast(el, answer.note_words);
        focusBack();
        status();
      }, function () { toast(el, words("data-engine-unanswered")); });  // not done: shown undone
    };
    inTurn(run);
  }
  function inTurn(work) { asking = (asking || Promise.resolve()).then(work, work); }

  // what a press on the board means, as the server's form would post it (with the selection
  // as it is once the taps before it are answered)
  function tapOf(press) {
    if (press.target) {
      var sel = state.game.sel || "";
      return { engine: { target: press.target }, fields: sel ? { target: press.target, sel: sel } : { target: press.target } };
    }
    var action = press.action;
    if (action === "draw" || action === "recycle" || action === "undo" || action === "redo") {
      return { engine: { action: action }, fields: { action: action } };
    }
    if (action === "redeal" || action === "confirm-redeal") {
      // a redeal that gives up moves: the engine's answer is the question (its note), and a
      // second press, the yes, is sent as the server's board would send it
      var asked = press.confirmed || action === "confirm-redeal" ? "confirm-redeal" : "redeal";
      return { engine: { action: asked }, fields: { action: asked } };
    }
    return null;
  }

  function newDeal(el) {
    // the engine says whether it asks first (a game in play counts as lost), as the server's
    // board would: the question with its buttons, whose yes is the yes
    var yes = confirming === "new" || el.getAttribute("data-action") === "confirm-new";
    var e = engine(), tap = { action: yes ? "confirm-new" : "new" };
    confirming = false;
    var preset = state.game.preset, seed, game;
    return e.apply(Object.assign({}, state.game, { language: document.documentElement.lang }), tap).then(function (asked) {
      if (!active || !state) return null;
      if (asked.note) {
        askFirst("new", el, asked.note_words);
        return null;
      }
      seed = provenSeed(state.game.deal && state.game.deal.seed) || newSeed();
      game = { preset: preset, deal: { seed: seed }, moves: [], cursor: 0, sel: "" };
      // the new deal is the page's once the engine has drawn it (else the page plays on the deal shown)
      return e.board(Object.assign({}, game, { language: document.documentElement.lang }));
    }).then(function (answer) {
      if (!answer || !active || !state) return;
      state.game = game;
      state.deal = "p:/play/" + preset + "/" + seed;
      save();
      lay(answer);
      focusBack();
      showSeed();
      status();
    }, function () { toast(el, words("data-engine-unanswered")); });
  }

  // every press on the board passes here first while the page plays by itself (before app.js)
  window.addEventListener("click", function (event) {
    if (!active) return;
    var el = event.target.closest && event.target.closest("#board button, #board a[data-action]");
    if (!el || el.disabled) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var action = el.getAttribute("data-action");
    var answering = el.closest("[data-confirm]");
    dropQuestions();  // answered, or passed over by another press
    if (answering) refocus = answering.getAttribute("data-confirm");
    if (action === "cancel") { confirming = false; focusBack(); return; }
    if (action === "new" || action === "confirm-new") { inTurn(function () { return newDeal(el); }); return; }
    var confirmed = !!action && confirming === action;
    confirming = false;
    if (action === "hint" || action === "restart" || action === "replay") { toast(el, words("data-offline-network")); return; }
    var press = el.name === "target" ? { target: el.value } : { action: action, confirmed: confirmed };
    ask(function () { return tapOf(press); }, el);
  }, true);
  window.addEventListener("submit", function (event) {
    if (active && event.target.closest && event.target.closest("#board")) event.preventDefault();
  }, true);

  // the page takes over what app.js's queue holds (shown, not yet answered) and plays on, once
  // the engine has started (it may not: Pyodide gone from the browser's cache); until then, and
  // if it does not answer, those moves wait in app.js and it says so, as without offline play
  var starting = false;
  function start() {
    var e = engine();
    if (active || starting || !e) return;
    starting = true;
    e.ready().then(function () { starting = false; takeOver(); }, function () { starting = false; });
  }
  function takeOver() {
    var e = engine(), b = board();
    if (active || !e || !b || !b.getAttribute("data-engine-game") || b.classList.contains("spectating")) return;
    var handed = window.TrettenBoard && window.TrettenBoard.handOver ? window.TrettenBoard.handOver() : { moves: [], later: [] };
    if (!handed) return;  // a post is on its way: asked again when it fails
    confirming = false;  // a question asked in an earlier offline spell is not answered by this one's press
    var fresh = fromBoard(b);
    if (!fresh) { if (handed.moves.length || (handed.later || []).length) window.TrettenBoard.takeBack(handed); return; }
    if (!state || !state.queue.length) state = fresh;
    else if (state.deal !== fresh.deal && (handed.moves.length || (handed.later || []).length)) {
      // the queue is of another game (a closed tab's, taken over): the moves shown on this board
      // are this board's, and wait in app.js for the network as without offline play
      window.TrettenBoard.takeBack(handed);
      handed = { moves: [], later: [] };
    }
    // the board app.js's waiting moves were made on (none waiting: the board noted last is newer)
    if (handed.base && handed.moves.length && state.at[state.deal]) state.at[state.deal] = handed.base;
    // a card selected on the page (app.js selects with no request) stays selected
    var selected = b.getAttribute("data-selected") || "";
    if (!handed.moves.length && state === fresh) state.game.sel = selected;
    active = true;
    // the server's board first, then what app.js had shown on it and the taps it held, made
    // again by the engine: all in turn, before any tap made from now on
    inTurn(function () {
      return e.board(Object.assign({}, state.game, { language: document.documentElement.lang }))
        .then(function (answer) { lay(answer); showSeed(); status(); }, function () {
          active = false;
          save();
          status();
          if (handed.moves.length || (handed.later || []).length) window.TrettenBoard.takeBack(handed);
        });
    });
    handed.moves.forEach(function (m) {
      // what the player pressed, as it was to be posted: a yes ("confirm-redeal") is a yes to
      // the engine too (app/engine/actions.py: read_action), not asked again
      var fields = m.fields || {};
      var tap = fields.action ? { engine: { action: fields.action }, fields: fields }
        : { engine: { target: fields.target }, fields: fields };
      ask(function () { if (fields.sel) state.game.sel = fields.sel; return tap; }, null);
    });
    if (handed.moves.length && selected) inTurn(function () { if (active && state) state.game.sel = selected; });
    (handed.later || []).forEach(function (kept) {
      var press = kept.value ? { target: kept.value } : { action: (kept.actions || [])[0] };
      if (!press.target && !press.action) return;
      ask(function () {
        var tap = tapOf(press);
        // a press only the server makes (a hint, Auto-finish, a new deal): not done, and said so
        if (!tap) toast(null, words("data-unanswered"));
        return tap;
      }, null);
    });
    save();
    status();
  }

  // ---------------------------------------------------------------- back online: the server judges

  function token() {  // the board's form's, else the one every page gives htmx (base.html)
    var input = document.querySelector('#board input[name="csrf_token"]') || document.querySelector('input[name="csrf_token"]');
    if (input) return input.value;
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || ""; } catch (e) { return ""; }
  }
  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }
  function later() {
    clearTimeout(timer);
    failures += 1;
    timer = setTimeout(sync, RETRY_MS[Math.min(failures, RETRY_MS.length) - 1]);
  }
  // what goes in the next request: a stored game's waiting changes together (in order, each
  // with its id; the server judges them one by one and says how many it took), or a new deal's
  // first move alone to the deal's link (its answer names the game the rest goes to)
  function nextSend() {
    var first = state.queue[0], id = state.ids[first.deal], at = state.at[first.deal];
    var body = new URLSearchParams();
    body.set("csrf_token", token());
    if (id && at) { body.set("ply", at.ply); body.set("version", at.version); }
    if (!id) {
      Object.keys(first.fields).forEach(function (k) { body.set(k, first.fields[k]); });
      body.set("mid", first.mid);
      body.set("offline", "1");
      return { url: first.deal.slice(2), body: body, items: [first], batch: false };
    }
    var items = [];
    for (var i = 0; i < state.queue.length && items.length < BATCH && state.queue[i].deal === first.deal; i++) items.push(state.queue[i]);
    body.set("changes", JSON.stringify(items.map(function (item) { return Object.assign({ mid: item.mid }, item.fields); })));
    return { url: "/games/" + id + "/changes", body: body, items: items, batch: true };
  }
  function sync() {
    clearTimeout(timer);
    if (syncing || !state) return;
    if (!state.queue.length) { finish(); return; }
    if (navigator.onLine === false) return;
    syncing = true;
    var send = nextSend(), deal = send.items[0].deal;
    fetch(send.url, { method: "POST", body: send.body, credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (r) { return r.text().then(function (text) { return { r: r, text: text }; }); })
      .then(function (got) {
        syncing = false;
        if (got.r.status >= 500 || got.r.status === 0) { later(); return; }
        var b = parse(got.text).getElementById("board");
        // no board (not the answer of a game: a login that changed, a page of another release):
        // the queue stays, and is sent again when the network or the page comes back
        if (!b) { status(); return; }
        var taken = send.batch ? Number(got.r.headers.get("X-Changes-Taken") || 0)
          : (got.r.status < 400 || b.getAttribute("data-mid") === send.items[0].mid ? 1 : 0);
        failures = 0;
        var gid = b.getAttribute("data-game-id");
        if (gid && taken) {
          state.ids[deal] = gid;
          state.at[deal] = { ply: b.getAttribute("data-ply"), version: b.getAttribute("data-version") };
        }
        state.queue.splice(0, taken);
        save();
        if (taken < send.items.length) { refused(got.text, b); return; }
        status();
        if (state.queue.length) sync(); else finish();
      }, function () { syncing = false; later(); });
  }
  // the server's board in place: the page is the server's again. In turn: a tap the engine is
  // still answering was made offline and goes to the server first (its change sent, then this)
  function finish() { inTurn(finishNow); }
  function finishNow() {
    if (!state) return;
    if (state.queue.length) { sync(); return; }
    var id = state.ids[state.deal];
    var url = id ? "/games/" + id : state.deal.slice(2);
    active = false;
    confirming = false;
    dropQuestions();
    var done = state;
    state = null;
    save();
    if (!window.htmx || !board()) return;
    htmx.ajax("GET", url, { target: "#board", swap: "outerHTML", select: "#board" }).then(function () {
      if (window.location.pathname !== url) history.replaceState(null, "", url);
      var r = region();
      if (r && done.queue.length === 0) r.textContent = r.getAttribute("data-saved");
    }, function () { state = done; active = true; save(); later(); });
  }
  // a change refused: the rest was made on a game that is not the server's; its board, with the
  // reason and how many changes made here are gone (the reason alone read as if nothing was lost)
  function refused(html, b) {
    var dropped = state ? state.queue.length : 0;
    active = false;
    confirming = false;
    state = null;
    save();
    if (!b || !board()) return;
    board().replaceWith(document.importNode(b, true));
    if (window.htmx) htmx.process(board());
    var gid = b.getAttribute("data-game-id");
    if (gid) history.replaceState(null, "", "/games/" + gid);
    if (!dropped) return;
    var said = words(dropped === 1 ? "data-offline-dropped-one" : "data-offline-dropped-many").replace("{n}", dropped);
    var t = board().querySelector(".toast");
    if (!t) {
      t = document.createElement("p");
      t.className = "toast message";
      board().appendChild(t);
    }
    t.textContent = (t.textContent.trim() + " " + said).trim();
    t.classList.add("lasting");
    var announce = document.getElementById("announce"), r = region();
    if (announce) announce.textContent = t.textContent;
    if (r) r.textContent = t.textContent;  // not "changes to send" of the changes gone
  }

  function back() {
    if (state && state.queue.length) { failures = 0; sync(); return; }
    if (active) finish();
  }
  window.addEventListener("online", back);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible" && navigator.onLine !== false) back(); });
  window.addEventListener("offline", function () { start(); });
  // a board request got no answer (app.js keeps it and says so): with the engine here, play on.
  // So too when it did get one after the network went: the "offline" event came while the move
  // was on its way (start waits for no post), and no failure will ask again
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!active && ((xhr && xhr.status === 0) || navigator.onLine === false)) setTimeout(start, 0);
  });
  // the engine came (offline.js loads it once offline play is on): a page already offline plays on
  document.addEventListener("tretten:engine", function () {
    var e = engine();
    if (e && (navigator.onLine === false || (state && state.queue.length))) {
      Promise.all([e.ready(), claimed]).then(resume, function () {});
    }
  });
  function resume() {
    state = state || load();
    var go = function () {
      if (navigator.onLine === false) { start(); return; }
      if (state && state.queue.length) sync();
    };
    // nothing of this tab's: a closed tab's changes (an installed app the phone closed offline
    // opens in a new tab) are played on, not left behind the server's older board
    if (state) go(); else adopt().then(go);
  }
  // loaded by offline.js once the page is shown and offline play is on (the document is parsed)
  function begin() {
    state = state || load();
    if (navigator.onLine !== false) {  // the moves made offline go first: this tab's, else a closed tab's
      noteBoard();
      if (state) sync(); else adopt().then(function (got) { if (got) sync(); });
      return;
    }
    // the engine may be here already (a page kept as last drawn carries its script)
    if (engine()) engine().ready().then(resume, function () {});
  }
  // a page the Back button brings back from the back-forward cache began long ago: the page
  // that was shown after it in this tab (gone now) may have left changes waiting
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted || busy()) return;
    claimed.then(adopt).then(function (got) {
      if (!got) return;
      if (navigator.onLine === false) start(); else sync();
    });
  });
  var parsed = new Promise(function (resolve) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resolve);
    else resolve();
  });
  Promise.all([parsed, claimed]).then(begin);

  window.TrettenOfflinePlay = {
    active: function () { return active; },
    pending: function () { return state ? state.queue.length : 0; },
    state: function () { return state; },
    start: start,
    sync: back
  };
})();
