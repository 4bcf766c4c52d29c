// The rules in the page (docs/architecture.md, "Offline"): a small API over the offline
// engine's worker (static/js/engine-worker.js: Pyodide running the app's own app/engine).
// Loaded by offline.js only once the player turns offline play on or runs the installed app, never
// on a first visit. It also keeps what offline play needs (the court figures, Pyodide, the
// engine's bundle) in the cache the service worker serves them from (/offline/files.json).
//
//   TrettenEngine.ready()                 -> Promise of {python, pyodide}: the engine has started
//   TrettenEngine.legal(game, moves)      -> Promise of the legal moves after `moves` (else the game's moves to its cursor; notation, sorted)
//   TrettenEngine.board(game)             -> Promise of the state after game.moves (see apply)
//   TrettenEngine.apply(game, tap)        -> Promise of what one tap does:
//       game = {preset, deal: {seed} | {text}, rules?, moves: [notation…], cursor?, sel?, language?, four_colour?}
//              (a stored game: GET /offline/games/{id} answers exactly this, for its own player)
//       tap  = {target: "P21" | "2.5"} | {action: "draw" | "recycle" | "redeal" | "undo" | "redo"} | {move}
//       answer = {moves, cursor, played, selected, note, note_words, status, end_reason, legal,
//                 can_undo, can_redo, board: {figures, layout, controls, cascade}}: the board's parts
//                 drawn by the server's own macros (templates/boards/*.html), in the page's language
//   TrettenEngine.call(name, payload)     -> any function of app/web/views/offline_engine.py's `call`
//   TrettenEngine.patience                = {start, call}: how long (ms) the worker may be silent while
//                                           it starts, and while calls wait on it
// Every answer only shows: the server still judges each move when it is posted.
// A worker that does not answer in time, or stops with an error (a browser may stop one that
// runs out of memory), is ended and every call waiting on it fails, so a tap is said to be not
// done instead of waiting for ever, with every tap after it; the next call starts a new worker.
(function () {
  "use strict";

  var FILES = "tretten.offline.files";
  var worker = null, started = null, next = 0, waiting = {}, watchdog = null;
  // a call takes well under a second (a Gaps redeal on a slow phone the longest); Pyodide's start
  // on a slow phone, from the cache, some seconds
  var patience = { start: 120000, call: 15000 };

  function files() {  // what to keep, from the server; offline, the list kept last time
    var kept = localStorage.getItem(FILES);
    if (kept && navigator.onLine === false) return Promise.resolve(JSON.parse(kept));
    return fetch("/offline/files.json", { cache: "no-cache" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (f) { localStorage.setItem(FILES, JSON.stringify(f)); return f; })
      .catch(function (error) {
        if (kept) return JSON.parse(kept);
        throw error;
      });
  }

  function keep(f) {  // into the service worker's cache: what is there already is not fetched again
    if (!window.caches) return Promise.resolve();
    return caches.open(f.cache).then(function (cache) {
      return Promise.all(f.art.concat(f.engine).map(function (url) {
        return cache.match(url).then(function (hit) { return hit || cache.add(url); });
      }));
    });
  }

  function send(fn, payload) {
    return new Promise(function (resolve, reject) {
      var id = ++next, w = worker;
      if (!w) { reject(new Error("the engine has stopped")); return; }
      waiting[id] = { resolve: resolve, reject: reject, fn: fn };
      if (!watchdog) watch();
      w.postMessage({ id: id, fn: fn, payload: payload });
    });
  }
  // The worker answers its calls one at a time, in order: while any waits, it must answer one
  // within the patience (counted again from each answer), or it is taken to have stopped
  function watch() {
    clearTimeout(watchdog);
    watchdog = null;
    var ids = Object.keys(waiting), w = worker;
    if (!ids.length || !w) return;
    var starting = ids.some(function (id) { return waiting[id].fn === "start"; });
    watchdog = setTimeout(function () { stopped(w, "the engine did not answer in time"); },
      starting ? patience.start : patience.call);
  }
  // the worker is ended, every call waiting on it fails, and the next call starts another
  function stopped(w, why) {
    if (w !== worker) return;
    w.terminate();
    worker = null;
    started = null;
    var all = waiting;
    waiting = {};
    watch();
    Object.keys(all).forEach(function (id) { all[id].reject(new Error(why)); });
  }

  function ready() {
    if (!started) {
      var mine = started = files().then(function (f) {
        // kept first: the worker then finds every file in the cache (or the browser's)
        return keep(f).then(function () { return f; });
      }).then(function (f) {
        var w = worker = new Worker(f.scripts.worker, { type: "module" });
        w.onmessage = function (event) {
          var answer = event.data, pending = waiting[answer.id];
          delete waiting[answer.id];
          watch();
          if (!pending) return;
          if (answer.ok) pending.resolve(answer.result); else pending.reject(new Error(answer.error));
        };
        w.onerror = function (event) { stopped(w, "the engine stopped: " + (event.message || "an error")); };
        return send("start", f);
      });
      mine.catch(function () { if (started === mine) started = null; });  // a failed start may be tried again
    }
    return started;
  }

  function after(fn) {
    return function (payload) { return ready().then(function () { return send(fn, payload); }); };
  }

  window.TrettenEngine = {
    patience: patience,
    ready: ready,
    legal: function (game, moves) {
      // a game's moves past its cursor are its redo tail, not played
      var played = (game.moves || []).slice(0, game.cursor == null ? undefined : game.cursor);
      return after("legal")({ preset: game.preset, deal: game.deal, rules: game.rules, moves: moves || played });
    },
    board: after("board"),
    apply: function (game, tap) { return after("apply")(Object.assign({}, game, { tap: tap })); },
    call: function (name, payload) { return after(name)(payload); }
  };
  // the setting's words (templates/_settings.html): getting ready, ready, or failed; off when
  // the player turns it off again
  // (static/js/offline.js draws the setting and has its words: TrettenOffline)
  function state(key) {
    window.TrettenEngine.state = key;
    if (window.TrettenOffline) window.TrettenOffline.say(key);
  }
  function start() {
    state("loading");
    ready().then(function () { state("ready"); }, function () { state("failed"); });
  }
  document.addEventListener("tretten:offline", function (event) { if (event.detail) start(); else state("off"); });
  start();
  document.dispatchEvent(new CustomEvent("tretten:engine"));
})();
