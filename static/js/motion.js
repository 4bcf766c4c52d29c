// Motion: the board's swaps shown as they happen, by the View Transitions API (htmx runs the
// swap inside document.startViewTransition) and CSS. It decides nothing: it compares the cards
// of the old board with those of the board the server sent (by data-card and their place) and
// animates the difference; for a group of moves (auto-finish) the server says which card each
// step took (data-motion-steps). Off when the player turned animations off (<html
// data-animations="off">) or the device asks for reduced motion; a tap or key press during an
// animation ends it at once, so the next move is never held up.
(function () {
  "use strict";

  var root = document.documentElement;
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  var MOVE_MS = 220;    // a card gliding to its new place, or leaving the board
  var STEP_MS = 160;    // between the moves of a group (auto-finish)
  var DEAL_MS = 14;     // between cards dealt in
  var REDEAL_MS = 560;  // a Gaps redeal: gathered, then dealt back
  var BOARDS = { board: true, replay: true };

  function enabled() {
    return root.getAttribute("data-animations") !== "off" && !reduced.matches &&
      typeof document.startViewTransition === "function";
  }

  // A card's key: its code and, for Double Pyramid's two decks, which copy it is in page order.
  function keyed(list) {
    var seen = {}, out = [];
    list.forEach(function (item) {
      var n = seen[item.code] = (seen[item.code] || 0) + 1;
      item.key = item.code + "-" + n;
      out.push(item);
    });
    return out;
  }
  function oldCards(container) {
    return keyed(Array.prototype.map.call(container.querySelectorAll("[data-card]"), function (el) {
      return { code: el.getAttribute("data-card"), place: el.getAttribute("data-loc") || el.getAttribute("data-pos"), el: el };
    }));
  }
  // the incoming board's cards, read from its markup before it is parsed into the page
  function newCards(html) {
    var found = [], tag = /<[^>]*\bdata-card="([^"]+)"[^>]*>/g, m;
    while ((m = tag.exec(html))) {
      var place = /\bdata-(?:loc|pos)="([^"]+)"/.exec(m[0]);
      found.push({ code: m[1], place: place ? place[1] : "" });
    }
    return keyed(found);
  }
  function attr(html, name) {
    var m = new RegExp("\\b" + name + '="([^"]*)"').exec(html);
    return m ? m[1] : null;
  }
  function stat(html, name) {
    var m = new RegExp('data-stat="' + name + '">([^<]*)<').exec(html);
    return m ? m[1] : null;
  }
  function vtName(key) { return "card-" + key.replace(/[^A-Za-z0-9-]/g, "_"); }

  function name(el, key, kind) {
    el.style.viewTransitionName = vtName(key);
    el.style.viewTransitionClass = "motion-" + kind;
  }

  var plan = null;      // the swap under way: what moved, left and came
  var running = null;   // the ViewTransition playing now
  var generation = 0;   // the latest planned swap: an ended transition clears only its own names

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !BOARDS[target.id]) return;
    root.classList.add("motion-swapped");  // the page's deal-in is over once the board changes
    root.classList.remove("motion-won");
    plan = null;
    unname(target);
    if (!enabled() || !event.detail.shouldSwap || event.detail.xhr.status !== 200) return;
    var html = event.detail.serverResponse;
    if (typeof html !== "string") return;
    var oldPly = target.getAttribute("data-ply"), newPly = attr(html, "data-ply");
    if (newPly === null || newPly === oldPly) return;  // a selection, a hint: nothing moves
    var before = {}, after = {};
    oldCards(target).forEach(function (c) { before[c.key] = c; });
    newCards(html).forEach(function (c) { after[c.key] = c; });
    var steps = {};
    (attr(html, "data-motion-steps") || "").split(" ").forEach(function (pair) {
      var at = pair.lastIndexOf(":");
      if (at > 0) steps[pair.slice(0, at)] = parseInt(pair.slice(at + 1), 10) || 0;
    });
    var next = {
      generation: ++generation, target: target.id, moved: {}, gone: {}, came: {}, count: 0, steps: steps,
      redeal: target.id === "board" && stat(html, "round") !== null &&
        stat(html, "round") !== (target.querySelector('[data-stat="round"]') || {}).textContent,
      won: target.getAttribute("data-status") !== "won" && attr(html, "data-status") === "won",
      kind: "move"
    };
    var taken = {};
    Object.keys(after).forEach(function (key) { taken[after[key].place] = true; });
    Object.keys(before).forEach(function (key) {
      var c = before[key], now = after[key];
      if (now && now.place === c.place) return;
      next[now ? "moved" : "gone"][key] = c;
      // a card that leaves a place another card takes (the waste under a drawn card) is
      // covered, not taken off the board
      name(c.el, key, now ? "moved" : taken[c.place] ? "covered" : "gone");
      next.count++;
    });
    Object.keys(after).forEach(function (key) {
      if (!before[key]) { next.came[key] = after[key]; next.count++; }
    });
    // what the page saw, for tests and style: "remove", "move", "redeal", "steps", "deal", and "win"
    next.kind = (next.won ? "win " : "") + (next.redeal ? "redeal" : Object.keys(steps).length > 1 ? "steps" :
      Object.keys(next.moved).length ? "move" : Object.keys(next.gone).length ? "remove" : "deal");
    if (!next.count && !next.won) { plan = null; return; }
    plan = next;
    event.detail.swapOverride = "outerHTML transition:true settle:0";
  });

  // inside the transition's update: the new board is in; name its cards as the old ones were
  document.addEventListener("htmx:afterSwap", function (event) {
    var p = plan;
    if (!p || !event.detail.target || event.detail.target.id !== p.target) return;
    plan = null;
    var board = document.getElementById(p.target);
    if (!board) return;
    var index = 0;
    oldCards(board).forEach(function (c) {
      if (p.moved[c.key]) { name(c.el, c.key, p.redeal ? "redealt" : "moved"); p.moved[c.key].now = c.el; }
      else if (p.came[c.key]) { name(c.el, c.key, "came"); p.came[c.key].index = index++; }
    });
    // on <html>: htmx puts the board's own attributes back once it settles
    if (p.won) { root.classList.add("motion-won"); burst(); }
    root.setAttribute("data-motion", p.kind);
    root.setAttribute("data-motion-runs", String((parseInt(root.getAttribute("data-motion-runs"), 10) || 0) + 1));
    var transition = document.activeViewTransition;
    if (!transition) return;
    running = transition;
    p.grid = board.querySelector(".gaps-grid");
    transition.ready.then(function () { timings(p); }, function () {});
    transition.finished.then(function () { done(p, transition); }, function () { done(p, transition); });
  });

  function done(p, transition) {
    if (running === transition) running = null;
    if (p.generation !== generation) return;  // a newer swap has named the cards already
    unname(document);
  }
  function unname(within) {
    within.querySelectorAll("[data-card]").forEach(function (el) {
      if (el.style.viewTransitionName) { el.style.viewTransitionName = ""; el.style.viewTransitionClass = ""; }
    });
  }

  // Delays and paths the stylesheet cannot know: a group's steps one after another, a deal's
  // stagger, a redeal's gathering point.
  function timings(p) {
    var byName = {};
    ["moved", "gone", "came"].forEach(function (kind) {
      Object.keys(p[kind]).forEach(function (key) { byName[vtName(key)] = { kind: kind, key: key, card: p[kind][key] }; });
    });
    var gather = null;
    if (p.redeal && p.grid) {
      var g = p.grid.getBoundingClientRect();
      gather = { x: g.left + g.width / 2, y: g.top + g.height / 2 };
    }
    document.getAnimations().forEach(function (animation) {
      var pseudo = animation.effect && animation.effect.pseudoElement;
      var m = pseudo && /^::view-transition-(group|old|new|image-pair)\((.+)\)$/.exec(pseudo);
      var info = m && byName[m[2]];
      if (!info) return;
      var code = info.key.replace(/-\d+$/, "");
      var delay = 0;
      if (p.steps[code]) delay = (p.steps[code] - 1) * STEP_MS;
      else if (info.kind === "came" && Object.keys(p.came).length > 4) delay = info.card.index * DEAL_MS;
      if (p.redeal && info.kind === "moved") {
        delay = (info.card.now ? order(info.card.now) : 0) * 9;
        if (m[1] === "group" && gather && info.card.now) redealPath(animation, gather, info.card.now);
      }
      if (delay) animation.effect.updateTiming({ delay: delay, fill: "backwards" });
    });
  }
  function order(el) {
    var pos = (el.getAttribute("data-pos") || "0.0").split(".");
    return parseInt(pos[0], 10) * 13 + parseInt(pos[1], 10);
  }
  // the group's own path runs from the old place to the new; add the pile in the middle
  function redealPath(animation, gather, el) {
    var frames = animation.effect.getKeyframes();
    if (frames.length !== 2 || !frames[0].transform) return;
    var r = el.getBoundingClientRect();
    var mid = Object.assign({}, frames[0], {
      offset: 0.45, transform: "translate(" + (gather.x - r.width / 2) + "px, " + (gather.y - r.height / 2) + "px)",
      easing: "ease-out"
    });
    delete mid.computedOffset;
    frames[0] = Object.assign({}, frames[0], { easing: "ease-in" });
    delete frames[0].computedOffset;
    delete frames[1].computedOffset;
    animation.effect.setKeyframes([frames[0], mid, frames[1]]);
    animation.effect.updateTiming({ duration: REDEAL_MS });
  }

  // A win: a short burst of suits from the end panel (the panel itself pops in by CSS).
  function burst() {
    var banner = document.querySelector("#board .banner.won");
    if (!banner || !enabled()) return;
    var box = document.createElement("div");
    box.className = "motion-burst";
    box.setAttribute("aria-hidden", "true");
    var suits = ["H", "S", "D", "C"];
    var wide = Math.min(banner.offsetWidth / 2, 420);
    for (var i = 0; i < 32; i++) {
      var piece = document.createElement("i");
      piece.className = "suit-" + suits[i % 4];
      var angle = (i / 32) * Math.PI * 2 + (i % 3) * 0.17;
      var reach = 0.45 + ((i * 37) % 55) / 100;
      piece.style.setProperty("--dx", Math.round(Math.cos(angle) * reach * wide) + "px");
      piece.style.setProperty("--dy", Math.round(Math.sin(angle) * reach * 110 - 30) + "px");
      piece.style.setProperty("--turn", ((i * 53) % 360) + "deg");
      piece.style.setProperty("--delay", (i % 7) * 25 + "ms");
      box.appendChild(piece);
    }
    banner.appendChild(box);
    root.setAttribute("data-motion-runs", String((parseInt(root.getAttribute("data-motion-runs"), 10) || 0) + 1));
    setTimeout(function () { box.remove(); }, 1600);
  }

  // The next tap or key must not wait for the last one's animation: end it now (the board
  // under it is already the new one).
  function skip() {
    if (running) { running.skipTransition(); running = null; }
  }
  document.addEventListener("pointerdown", skip, true);
  document.addEventListener("keydown", skip, true);
})();
