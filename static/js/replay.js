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
  // end; played again from the end, it starts from the deal.
  var replay = { playing: false, wait: 1000, timer: null };
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
    htmx.ajax("GET", href, { target: "#replay", swap: "outerHTML" }).then(function () {
      history.replaceState(history.state, "", href);
    }, function () { replayPlay(false); });
  }
  function replayLater() {
    clearTimeout(replay.timer);
    replay.timer = replay.playing ? setTimeout(function () {
      replay.timer = null;
      var next = document.querySelector('#replay a[data-replay="next"]');
      if (next && replay.playing) replayGo(next); else replayPlay(false);
    }, replay.wait) : null;
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
