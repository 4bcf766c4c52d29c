// The table's answers beside the finger: a refusal or a note (the board's .toast) is laid next to
// the card, gap or button that was tapped, not at the top of the window; it floats (fixed), so
// the board never moves. And Escape closes the "Start a new deal?" question. No rules here.
(function () {
  "use strict";

  var PLACE = 'button[name="target"], [data-action]';
  var tapped = null;  // what the last tap or key pressed, to find again on the board that answers

  function remember(el) {
    if (!el || !el.closest("#board")) return;
    tapped = { loc: el.getAttribute("data-loc"), pos: el.getAttribute("data-pos"), action: el.getAttribute("data-action"),
      rect: el.getBoundingClientRect() };
  }
  document.addEventListener("pointerdown", function (event) {
    remember(event.target.closest && event.target.closest(PLACE));
  }, true);
  document.addEventListener("keydown", function () {
    var el = document.activeElement;
    if (el && el.matches && el.matches(PLACE)) remember(el);
  }, true);

  function again(board) {
    if (!tapped) return null;
    var el = (tapped.loc && board.querySelector('[data-loc="' + CSS.escape(tapped.loc) + '"]:not([data-removed])')) ||
      (tapped.pos && board.querySelector('[data-pos="' + CSS.escape(tapped.pos) + '"]')) ||
      (tapped.action && board.querySelector('[data-action="' + CSS.escape(tapped.action) + '"]'));
    return el ? el.getBoundingClientRect() : tapped.rect;
  }

  // Beside the place `at` (a rect): under it, else above it, else to its right or left, inside
  // the window; of those, the first that covers no control (the stock's Draw strip under its
  // card, Undo, Hint…: what the player wanted instead is never hidden) and no card that can be
  // played or pile the player takes from next (the stock and the waste, right under a
  // pyramid's bottom row on a phone), else the first that covers no control; with none, over
  // the place's middle.
  var CONTROLS = "#board [data-action]:not([disabled])", PLAYABLE = "#board .playable, #board [data-pile]";
  function overlaps(box, selector, at) {
    return Array.prototype.some.call(document.querySelectorAll(selector), function (el) {
      var r = el.getBoundingClientRect();
      if (!r.width || (r.left === at.left && r.top === at.top)) return false;  // the place itself
      return r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom;
    });
  }
  function placeToast(toast, at) {
    toast.classList.add("at-finger");
    var w = toast.offsetWidth, h = toast.offsetHeight, gap = 8, edge = 6;
    var x = Math.min(Math.max(at.left + at.width / 2 - w / 2, edge), window.innerWidth - w - edge);
    var y = Math.min(Math.max(at.top + at.height / 2 - h / 2, edge), window.innerHeight - h - edge);
    var boxes = [[x, at.bottom + gap], [x, at.top - h - gap], [at.right + gap, y], [at.left - w - gap, y]]
      .map(function (p) { return { left: p[0], top: p[1], right: p[0] + w, bottom: p[1] + h }; })
      .filter(function (b) {
        return b.left >= edge && b.top >= edge && b.right <= window.innerWidth - edge && b.bottom <= window.innerHeight - edge;
      });
    var free = boxes.filter(function (b) { return !overlaps(b, CONTROLS, at); });
    var best = free.filter(function (b) { return !overlaps(b, PLAYABLE, at); })[0] || free[0] ||
      { left: x, top: y };
    toast.style.left = best.left + "px";
    toast.style.top = best.top + "px";
  }
  // the server's toast, beside what was tapped
  function place() {
    var board = document.getElementById("board");
    var toast = board && board.querySelector(".toast");
    if (!toast) return;
    var at = again(board);
    tapped = null;
    if (at && at.width) placeToast(toast, at);
  }
  document.addEventListener("htmx:afterSwap", place);
  window.TrettenTable = { placeToast: placeToast };  // the page's own answers too (app.js: say)

  // after `d` (draw or turn over) pressed with no card in focus, focus stays on the table: on the
  // stock's edge that drew, not on the page's body
  var drew = false;
  document.addEventListener("keydown", function (event) {
    drew = event.key.toLowerCase() === "d" && !event.ctrlKey && !event.metaKey && !event.altKey;
  }, true);
  document.addEventListener("htmx:afterSettle", function () {
    if (!drew) return;
    drew = false;
    var el = document.activeElement;
    if (el && el !== document.body && document.contains(el)) return;
    var next = document.querySelector('#board [data-action="draw"]:not([disabled]), #board [data-action="recycle"]') ||
      document.querySelector('#board .pile-stock [data-loc], #board .playable');
    if (next) next.focus();
  });

  // the keys work only with this script: their help shows with it
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".keys-help[hidden]").forEach(function (p) { p.hidden = false; });
  });

  // Escape: the question over the board is answered "Cancel"
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var cancel = document.querySelector('#board [data-confirm] [data-action="cancel"]');
    if (!cancel) return;
    event.preventDefault();
    cancel.click();
  });

  // Escape closes a win's end panel (its ✕ is the panel's summary: that works without script)
  // and shows the finished cards; focus stays on its "show the result"
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var panel = document.querySelector("#board details[data-end-panel][open]");
    if (!panel) return;
    event.preventDefault();
    panel.open = false;
    var toggle = panel.querySelector("summary");
    if (toggle) toggle.focus();
  });
})();
