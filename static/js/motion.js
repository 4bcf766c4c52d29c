// Motion: the board's swaps shown as they happen, by the Web Animations API (element.animate)
// and CSS. It decides nothing: it compares the cards of the old board with those of the board
// the server sent (by data-card and their place) and animates the difference; for a group of
// moves (auto-finish) the server says which card each step took (data-motion-steps).
//
// The new board goes into the page at once and its cards glide from where the old ones were
// (first, last, invert, play): the board a player taps is always the live one, and no frame is
// spent taking a picture of the old page before the swap. A card that left the board is the old
// card itself, laid over the new board in its old place while it lifts and fades.
//
// Off when the player turned animations off (<html data-animations="off">) or the device asks
// for reduced motion; a tap or key press during an animation ends it at once, so the next move is
// never held up.
(function () {
  "use strict";

  var root = document.documentElement;
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  var MOVE_MS = 220;    // a card gliding to its new place, or leaving the board
  var STEP_MS = 160;    // between the moves of a group (auto-finish)
  var DEAL_MS = 14;     // between cards dealt in
  var REDEAL_MS = 560;  // a Gaps redeal: gathered, then dealt back
  var GLIDE = "cubic-bezier(.25, .75, .3, 1)";
  var BOARDS = { board: true, replay: true };

  function enabled() {
    return root.getAttribute("data-animations") !== "off" && !reduced.matches &&
      typeof Element.prototype.animate === "function";
  }

  function cardsOf(container) {
    return Array.prototype.map.call(container.querySelectorAll("[data-card]"), function (el) {
      return { code: el.getAttribute("data-card"), place: el.getAttribute("data-loc") || el.getAttribute("data-pos"), el: el };
    });
  }
  // the incoming board's cards, read from its markup before it is parsed into the page
  function newCards(html) {
    var found = [], tag = /<[^>]*\bdata-card="([^"]+)"[^>]*>/g, m;
    while ((m = tag.exec(html))) {
      var place = /\bdata-(?:loc|pos)="([^"]+)"/.exec(m[0]);
      found.push({ code: m[1], place: place ? place[1] : "" });
    }
    return found;
  }
  // Which old card became which new one. A card is known by its code and its place; Double
  // Pyramid's two decks hold two of each card, so copies are matched in place first, and only
  // the copies left over moved (in page order), left the board or came.
  function matched(before, after) {
    var out = { moved: [], gone: [], came: [] }, byCode = {};
    before.forEach(function (c) { (byCode[c.code] = byCode[c.code] || { old: [], now: [] }).old.push(c); });
    after.forEach(function (c) { (byCode[c.code] = byCode[c.code] || { old: [], now: [] }).now.push(c); });
    Object.keys(byCode).forEach(function (code) {
      var group = byCode[code];
      var stay = {};
      group.now.forEach(function (c) { stay[c.place] = true; });
      var old = group.old.filter(function (c) { return !stay[c.place]; });
      var kept = {};
      group.old.forEach(function (c) { kept[c.place] = true; });
      var now = group.now.filter(function (c) { return !kept[c.place]; });
      old.forEach(function (c, i) {
        if (i < now.length) { c.to = now[i].place; out.moved.push(c); } else out.gone.push(c);
      });
      now.slice(old.length).forEach(function (c) { out.came.push(c); });
    });
    return out;
  }
  function attr(html, name) {
    var m = new RegExp("\\b" + name + '="([^"]*)"').exec(html);
    return m ? m[1] : null;
  }
  function stat(html, name) {
    var m = new RegExp('data-stat="' + name + '">([^<]*)<').exec(html);
    return m ? m[1] : null;
  }

  var plan = null;      // the swap under way: what moved, left and came
  var playing = [];     // the animations of the last swap, ended by the next tap
  // A move the page showed before its board came (static/js/app.js, "answers"): its animations
  // go on while that board is laid in, which then changes nothing more.
  var ahead = { playing: [], layer: null, answering: false, carry: [], kind: "move" };

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !BOARDS[target.id]) return;
    skip(true);
    var answering = ahead.answering;
    ahead.answering = false;
    // where the cards still gliding are now: the new board's cards go on from there
    ahead.carry = [];
    ahead.playing.forEach(function (animation) {
      var el = animation.effect && animation.effect.target;
      if (animation.id !== "motion-moved" || animation.playState !== "running" || !el || !target.contains(el)) return;
      ahead.carry.push({ code: el.getAttribute("data-card"), place: el.getAttribute("data-loc") || el.getAttribute("data-pos"),
        rect: el.getBoundingClientRect(), left: Math.max(0, MOVE_MS - (animation.currentTime || 0)) });
    });
    if (ahead.layer) ahead.layer.remove();  // kept, and laid over the new board
    root.classList.add("motion-swapped");  // the page's deal-in is over once the board changes
    root.classList.remove("motion-won");
    plan = null;
    if (!enabled() || !event.detail.shouldSwap || event.detail.xhr.status !== 200) return;
    var html = event.detail.serverResponse;
    if (typeof html !== "string") return;
    var oldPly = target.getAttribute("data-ply"), newPly = attr(html, "data-ply");
    // a new deal (or the deal again) in place of the board: the old cards go, the new are dealt in
    var deal = newPly === "0" && attr(html, "data-deal") !== target.getAttribute("data-deal");
    if (!deal && (newPly === null || newPly === oldPly)) return;  // a selection, a hint: nothing moves
    var steps = {};
    (attr(html, "data-motion-steps") || "").split(" ").forEach(function (pair) {
      var at = pair.lastIndexOf(":");
      if (at > 0) steps[pair.slice(0, at)] = parseInt(pair.slice(at + 1), 10) || 0;
    });
    var changed = matched(cardsOf(target), newCards(html));
    var next = {
      target: target.id, moved: {}, gone: changed.gone, came: {}, steps: steps,
      count: changed.moved.length + changed.gone.length + changed.came.length,
      deal: deal,
      redeal: target.id === "board" && stat(html, "round") !== null &&
        stat(html, "round") !== (target.querySelector('[data-stat="round"]') || {}).textContent,
      won: target.getAttribute("data-status") !== "won" && attr(html, "data-status") === "won",
      kind: "move",
      answering: answering
    };
    var movedInto = {}, left = {};
    changed.moved.forEach(function (c) {
      c.rect = c.el.getBoundingClientRect();  // first: where it was
      next.moved[c.code + "@" + c.to] = c;
      movedInto[c.to] = true;
    });
    changed.gone.forEach(function (c) {
      c.rect = c.el.getBoundingClientRect();
      // a card that a moved card lies on now (the waste under a drawn card) is covered, not
      // taken off the board; one taken off shows the card it lay on (a Giza reserve's next)
      c.covered = !!movedInto[c.place];
      left[c.place] = true;
    });
    changed.came.forEach(function (c) { if (!left[c.place]) next.came[c.code + "@" + c.place] = c; });
    // what the page saw, for tests and style: "remove", "move", "redeal", "steps", "deal", and "win"
    next.kind = (next.won ? "win " : "") + (next.deal ? "deal" : next.redeal ? "redeal" : Object.keys(steps).length > 1 ? "steps" :
      changed.moved.length ? "move" : changed.gone.length ? "remove" : answering ? ahead.kind : "deal");
    if (!next.count && !next.won) return;
    plan = next;
  });

  // the new board is in: each card that changed plays from where it was to where it is
  document.addEventListener("htmx:afterSwap", function (event) {
    var p = plan;
    var into = event.detail.target && document.getElementById(event.detail.target.id);
    if (into && into.id === "board") carryOn(into);
    if (!p || !event.detail.target || event.detail.target.id !== p.target) return;
    plan = null;
    var board = document.getElementById(p.target);
    if (!board) return;
    var grid = board.querySelector(".gaps-grid");
    var gather = null;
    if (p.redeal && grid) {
      var g = grid.getBoundingClientRect();
      gather = { x: g.left + g.width / 2, y: g.top + g.height / 2 };
    }
    var index = 0, dealt = p.deal || Object.keys(p.came).length > 4;
    var all = cardsOf(board), from = p.deal ? dealSource(board) : null;
    // every place read before any card is changed: one layout, not one per card
    if (from) all.forEach(function (c) { c.rect = c.el.getBoundingClientRect(); });
    all.forEach(function (c) {
      var key = c.code + "@" + c.place, was = p.moved[key];
      if (was && !p.deal) {
        var delay = p.redeal ? order(c.el) * 9 : stepDelay(p, c.code);
        glide(c.el, was.rect, c.el.getBoundingClientRect(), delay, p.redeal ? gather : null);
      } else if (from) {
        dealIn(c.el, c.rect, from, index++, all.length);
      } else if (p.deal || p.came[key]) {
        var at = index++;
        play(c.el, "motion-came", [{ opacity: 0, transform: "translateY(-14px) scale(.92)" }, { opacity: 1, transform: "none" }],
          { duration: MOVE_MS, easing: "ease-out", delay: stepDelay(p, c.code) || (dealt ? at * DEAL_MS : 0), fill: "backwards" });
      }
    });
    // the cards that left lift off where they were (under a won game's end panel), unless a
    // whole new deal comes
    if (!p.deal) p.gone.forEach(function (c) { leave(board, c, stepDelay(p, c.code)); });
    // on <html>: htmx puts the board's own attributes back once it settles
    if (p.won) { root.classList.add("motion-won"); burst(); cascade(board); }
    // the board of a move already shown: only the cards it turned up (the waste's next) came
    if (p.answering && !p.won && !p.deal && !p.redeal && !p.gone.length && !Object.keys(p.moved).length) return;
    root.setAttribute("data-motion", p.kind);
    root.setAttribute("data-motion-runs", String((parseInt(root.getAttribute("data-motion-runs"), 10) || 0) + 1));
  });

  // A new deal is dealt from the stock: each card flies from the pile to its place, one after
  // another, all of them within DEAL_ALL_MS; where there is no stock (Giza, Gaps), from a pile
  // in the middle of the table. A tap ends it (skip).
  var DEAL_ALL_MS = 580, DEAL_FLY_MS = 240;
  function dealSource(board) {
    var pile = board.querySelector(".pile-stock .pile-cards") || board.querySelector(".tableau, .gaps-grid");
    if (!pile) return null;
    var r = pile.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }
  function dealIn(el, to, from, i, total) {
    var dx = from.x - (to.left + to.width / 2), dy = from.y - (to.top + to.height / 2);
    var gap = total > 1 ? Math.min(DEAL_MS, (DEAL_ALL_MS - DEAL_FLY_MS) / (total - 1)) : 0;
    el.classList.add("motion-moving");
    var animation = play(el, "motion-came", [
      { transform: "translate(" + dx + "px, " + dy + "px) scale(.9)", opacity: 1 },
      { transform: "none", opacity: 1 }
    ], { duration: DEAL_FLY_MS, easing: GLIDE, delay: i * gap, fill: "backwards" });
    var clear = function () { el.classList.remove("motion-moving"); };
    animation.finished.then(clear, clear);
  }

  // the board of a move shown ahead is in: its leaving cards stay over it, its gliding cards
  // glide on from where they are to where the board has them
  function carryOn(board) {
    if (ahead.layer && ahead.layer.children.length) board.appendChild(ahead.layer);
    var carry = ahead.carry;
    ahead.carry = [];
    if (!enabled()) return;
    carry.forEach(function (c) {
      if (!c.code || !c.left) return;
      var attr = /^\d+\.\d+$/.test(c.place) ? "data-pos" : "data-loc";
      var el = board.querySelector("[data-card=\"" + CSS.escape(c.code) + "\"][" + attr + "=\"" + CSS.escape(c.place) + "\"]");
      if (el) glide(el, c.rect, el.getBoundingClientRect(), 0, null, ahead.playing, c.left);
    });
  }

  // A move shown by the page before its board comes (static/js/app.js): ``shown.gone`` are the
  // cards it took off (already out of the board, {el, rect, covered}), ``shown.moved`` those it
  // put in a new place ({el, rect}: where they were).
  // ``shown`` null: a move shown again on the board that came before its own (no new motion).
  window.TrettenMotion = {
    // a selection, or a move: the deal-in is over (the card tapped is where it lies)
    dealt: function () { root.classList.add("motion-swapped"); },
    ahead: function (shown) {
      ahead.answering = true;
      if (!shown) return;
      skip(false);
      ahead.answering = true;
      if (!shown.gone.length && !shown.moved.length) return;
      root.classList.add("motion-swapped");
      var board = document.getElementById("board");
      if (!enabled() || !board) return;
      shown.moved.forEach(function (c) { glide(c.el, c.rect, c.el.getBoundingClientRect(), 0, null, ahead.playing); });
      shown.gone.forEach(function (c) { leave(board, c, 0, true); });
      ahead.kind = shown.moved.length ? "move" : "remove";
      root.setAttribute("data-motion", ahead.kind);
      root.setAttribute("data-motion-runs", String((parseInt(root.getAttribute("data-motion-runs"), 10) || 0) + 1));
    }
  };

  function stepDelay(p, code) {
    return p.steps[code] ? (p.steps[code] - 1) * STEP_MS : 0;
  }
  function order(el) {
    var pos = (el.getAttribute("data-pos") || "0.0").split(".");
    return parseInt(pos[0], 10) * 13 + parseInt(pos[1], 10);
  }

  function play(el, id, frames, timing, list) {
    var animation = el.animate(frames, timing);
    animation.id = id;
    (list || playing).push(animation);
    return animation;
  }

  // invert: the card is drawn where it was, then plays to its place (for a redeal, through the
  // pile in the middle of the grid); above the cards that stay
  function glide(el, from, to, delay, gather, list, duration) {
    var dx = from.left - to.left, dy = from.top - to.top;
    var sx = to.width ? from.width / to.width : 1, sy = to.height ? from.height / to.height : 1;
    if (!dx && !dy && sx === 1 && sy === 1) return;
    var frames = [{ transform: "translate(" + dx + "px, " + dy + "px) scale(" + sx + ", " + sy + ")" }, { transform: "none" }];
    var timing = { duration: duration || MOVE_MS, easing: GLIDE, delay: delay, fill: "backwards" };
    if (gather) {
      var mid = "translate(" + (gather.x - to.left - to.width / 2) + "px, " + (gather.y - to.top - to.height / 2) + "px)";
      frames = [{ transform: frames[0].transform, easing: "ease-in" }, { transform: mid, offset: 0.45, easing: "ease-out" },
        { transform: "none" }];
      timing = { duration: REDEAL_MS, delay: delay, fill: "backwards" };
    }
    el.classList.add("motion-moving");
    var animation = play(el, "motion-moved", frames, timing, list);
    var clear = function () { el.classList.remove("motion-moving"); };
    animation.finished.then(clear, clear);
  }

  // a card taken off the board: the old card itself, laid over the window where it was (in a
  // layer of the new board's, gone with the next swap), never tappable nor read out
  function leave(board, c, delay, early) {
    var layer = early ? ahead.layer : board.querySelector(":scope > .motion-ghosts:not(.motion-ahead)");
    if (!layer) {
      layer = document.createElement("div");
      layer.className = early ? "motion-ghosts motion-ahead" : "motion-ghosts";
      layer.setAttribute("aria-hidden", "true");
      if (early) ahead.layer = layer;
    }
    if (!layer.parentElement) board.appendChild(layer);
    var ghost = c.el;
    ["id", "name", "value", "data-card", "data-loc", "data-pos"].forEach(function (a) { ghost.removeAttribute(a); });
    ghost.classList.remove("pressed");  // its place was measured pressed already
    ghost.setAttribute("tabindex", "-1");
    ghost.style.left = c.rect.left + "px";
    ghost.style.top = c.rect.top + "px";
    ghost.style.width = c.rect.width + "px";
    ghost.style.height = c.rect.height + "px";
    layer.appendChild(ghost);
    var frames = c.covered ? [{ opacity: 1 }, { opacity: 0 }]
      : [{ opacity: 1, transform: "none" }, { opacity: 0, transform: "translateY(-28px) scale(1.08)" }];
    var animation = play(ghost, c.covered ? "motion-covered" : "motion-gone", frames,
      { duration: MOVE_MS, easing: c.covered ? "linear" : "ease-in", delay: delay, fill: "both" }, early ? ahead.playing : null);
    var away = function () {
      ghost.remove();
      if (!layer.children.length) { layer.remove(); if (layer === ahead.layer) ahead.layer = null; }
    };
    animation.finished.then(away, away);
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
    // gone when its suits have flown (a tap ends them: skip)
    var flights = box.getAnimations ? box.getAnimations({ subtree: true }) : [];
    flights.forEach(function (a) { playing.push(a); });
    Promise.all(flights.map(function (a) { return a.finished; })).then(function () { box.remove(); }, function () { box.remove(); });
  }

  // A win: the cards cascade off the table under the end panel, one after another, each in an
  // arc that falls out of the window: a won Pyramid's removed pile (drawn, unseen, by the
  // server) from the middle of the table, a won Gaps grid's finished rows from their places
  // (copies: the rows stay behind). A tap ends it (skip).
  var CASCADE_GAP = 24, CASCADE_MS = 1000;
  function cascade(board) {
    var cards = board.querySelectorAll("[data-cascade] .card:not(.starter)");
    if (!cards.length || !enabled()) return;
    var layer = document.createElement("div");
    layer.className = "motion-cascade";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
    var table = board.querySelector(".tableau") || board;
    var t = table.getBoundingClientRect();
    var fall = window.innerHeight + 40;
    // every place read before the first copy is laid: one layout, not one per card
    var rects = Array.prototype.map.call(cards, function (card) { return card.getBoundingClientRect(); });
    Array.prototype.forEach.call(cards, function (card, i) {
      var r = rects[i], w = r.width || 60, h = r.height || 84;
      var x = r.left, y = r.top;
      if (card.closest(".win-pile")) {  // the pile: stacked at the foot of the empty pyramid
        x = t.left + t.width / 2 - w / 2 + (i % 4) - 2; y = t.top + t.height - h / 2 - i * 0.6;
      }
      var copy = card.cloneNode(true);
      copy.className = card.className.replace(/\b(playable|selected|partner|pressed|refused|hinted|in-place)\b/g, "");
      ["data-card", "data-loc", "data-pos", "name", "value", "id", "type", "aria-label", "aria-pressed"].forEach(function (a) { copy.removeAttribute(a); });
      copy.setAttribute("tabindex", "-1");
      copy.style.left = x + "px"; copy.style.top = y + "px";
      copy.style.width = w + "px"; copy.style.height = h + "px";
      layer.appendChild(copy);
      var side = i % 2 ? 1 : -1, reach = (0.35 + ((i * 37) % 60) / 100) * Math.max(window.innerWidth / 2, 220);
      var dx = side * reach, rise = 60 + ((i * 53) % 120), dy = fall - y;
      var animation = play(copy, "motion-cascade", [
        { transform: "translate(0, 0) rotate(0deg)", easing: "cubic-bezier(.3, .6, .5, 1)" },
        { transform: "translate(" + dx * 0.4 + "px, " + -rise + "px) rotate(" + side * 40 + "deg)", offset: 0.25, easing: "cubic-bezier(.5, 0, .9, .6)" },
        { transform: "translate(" + dx + "px, " + dy + "px) rotate(" + side * 160 + "deg)" }
      ], { duration: CASCADE_MS, delay: 80 + i * CASCADE_GAP, fill: "both" });
      var away = function () { copy.remove(); if (!layer.children.length) layer.remove(); };
      animation.finished.then(away, away);
    });
  }

  // The next tap or key must not wait for the last one's animation: end it now (the board
  // under it is already the new one). A swap ends the last swap's; a move shown ahead goes on
  // until the next tap.
  function skip(swapping) {
    var ending = playing;
    playing = [];
    if (swapping !== true) {
      ending = ending.concat(ahead.playing);
      ahead.playing = [];
    }
    ending.forEach(function (animation) {
      if (animation.playState !== "finished") animation.finish();
    });
    document.querySelectorAll(swapping === true ? ".motion-ghosts:not(.motion-ahead), .motion-cascade" : ".motion-ghosts, .motion-cascade").forEach(function (layer) { layer.remove(); });
    if (swapping !== true) ahead.layer = null;
  }
  document.addEventListener("pointerdown", skip, true);
  document.addEventListener("keydown", skip, true);
})();
