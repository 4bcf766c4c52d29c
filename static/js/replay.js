// A replay's play and pause (/g/{id}/replay; loaded by that page only): a step forward every so
// often, each the "Forward" link's own request; without this script the links step.
(function () {
  "use strict";
  if (window.TrettenReplay) return;  // a page restored from history brings this script again
  window.TrettenReplay = true;

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  // the speed: ms a step; the address follows without a history entry per move. Stops at the
  // end; played again from the end, it starts from the deal. A step taken by hand (a link, a key,
  // the slider) pauses it. A frame's requests go one at a time, the last asked waiting for the
  // one on its way (its hx-sync), and a timed step that comes after a pause is not shown: it
  // never lands over the player's own step or after the Pause.
  var replay = { playing: false, wait: 1000, timer: null, asked: 0 };
  function replayControls() {
    var button = document.querySelector("#replay [data-replay-play]");
    if (!button) return;
    button.hidden = false;
    button.setAttribute("aria-pressed", replay.playing ? "true" : "false");
    button.textContent = button.getAttribute(replay.playing ? "data-pause-label" : "data-play-label");
    var box = document.querySelector("#replay [data-replay-speed-box]");
    if (box) box.hidden = false;
    var go = document.querySelector("#replay [data-replay-go]");  // the slider goes by itself here
    if (go) go.hidden = true;
    var speed = document.querySelector("#replay [data-replay-speed]");
    if (speed) speed.value = String(replay.wait);
  }
  function replayGo(link) {
    var href = link.getAttribute("href");
    replay.asked = Date.now();
    // sent from the frame, as its links are (hx-sync); the address follows if it is shown
    htmx.ajax("GET", href, { source: "#replay", target: "#replay", swap: "outerHTML", replace: href })
      .catch(function () { /* paused by htmx:afterRequest */ });
  }
  function replayLater() {  // the speed counts from when the step before was asked: its round trip is in it
    clearTimeout(replay.timer);
    var left = Math.max(0, replay.wait - (Date.now() - replay.asked));
    replay.timer = replay.playing ? setTimeout(function () {
      replay.timer = null;
      var next = document.querySelector('#replay a[data-replay="next"]');
      if (next && replay.playing) replayGo(next); else replayPlay(false);
    }, left) : null;
  }
  function replayPlay(on) {
    replay.playing = on;
    var atEnd = !document.querySelector('#replay a[data-replay="next"]');
    var first = document.querySelector('#replay a[data-replay="first"]');
    if (on && atEnd && first) replayGo(first);  // from the deal again; its frame schedules the next
    else replayLater();
    replayControls();
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#replay [data-replay-play]")) replayPlay(!replay.playing);
  });
  document.addEventListener("pointerdown", function (event) {  // a slider dragged is not swapped away
    if (replay.playing && event.target.closest && event.target.closest("#replay [data-replay-slider]")) replayPlay(false);
  });
  document.addEventListener("htmx:confirm", function (event) {  // a step by hand, as it is asked
    var from = event.detail.elt;
    if (replay.playing && from && from.id !== "replay" && from.closest && from.closest("#replay")) replayPlay(false);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {  // a timed step come after a pause
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!replay.playing && from && from.id === "replay") event.detail.shouldSwap = false;
  });
  // a timed step that failed (the network gone, an error answered: no frame is laid in, so no
  // step follows): the replay pauses, its button says Play, and a press plays on from there
  document.addEventListener("htmx:afterRequest", function (event) {
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!replay.playing || event.detail.successful || !from || from.id !== "replay") return;
    replayPlay(false);
    var said = document.querySelector("#replay [data-replay-stopped]");  // a frame laid in drops it
    if (said) said.hidden = false;
  });
  document.addEventListener("change", function (event) {
    if (!event.target.hasAttribute || !event.target.hasAttribute("data-replay-speed")) return;
    replay.wait = parseInt(event.target.value, 10) || 1000;
    replayLater();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== " " || !document.getElementById("replay") || event.ctrlKey || event.metaKey || event.altKey ||
        typing(event.target) || (event.target.closest && event.target.closest("a, button, summary"))) return;
    event.preventDefault();
    replayPlay(!replay.playing);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.target || event.detail.target.id !== "replay" || !document.getElementById("replay")) return;
    if (replay.playing && !document.querySelector('#replay a[data-replay="next"]')) replay.playing = false;
    replayLater();
    replayControls();
  });
  document.addEventListener("DOMContentLoaded", replayControls);
})();
