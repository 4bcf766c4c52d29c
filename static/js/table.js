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

  // under the place (over the cards below it when there is no room), else above; inside the window
  function place() {
    var board = document.getElementById("board");
    var toast = board && board.querySelector(".toast");
    if (!toast) return;
    var at = again(board);
    tapped = null;
    if (!at || !at.width) return;
    toast.classList.add("at-finger");
    var w = toast.offsetWidth, h = toast.offsetHeight, gap = 8;
    var left = Math.min(Math.max(at.left + at.width / 2 - w / 2, 6), window.innerWidth - w - 6);
    var top = at.bottom + gap;
    if (top + h > window.innerHeight - 6) top = at.top - h - gap;
    if (top < 6) top = Math.max(6, at.top + at.height / 2 - h / 2);
    toast.style.left = left + "px";
    toast.style.top = top + "px";
  }
  document.addEventListener("htmx:afterSwap", place);

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
})();
