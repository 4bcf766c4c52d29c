// Offline (docs/architecture.md, "Offline"), loaded by app.js once the page is shown (its address
// has no hash: offline, the service worker answers it with the copy it keeps). A new version of
// the app is let in at a calm moment (the player's tap on "New version: reload", or the page
// left): moves still waiting live in sessionStorage, and the new scripts send them. The rules in the page (engine.js) load only once offline play is on (the
// settings) or the app is installed.
(function () {
  "use strict";
  var KEY = "tretten.offline", sw = navigator.serviceWorker;
  if (!sw) return;
  // the page as last drawn, nothing waiting on it: what a reload offline finds ("tretten-pages")
  function keepPage() {
    var b = document.getElementById("board"), t = window.TrettenBoard;
    if (!sw.controller || !window.caches || (b && (b.getAttribute("data-pending") || "0") !== "0") || (t && t.waiting())) return;
    // without the scripts added since it was loaded (offline.js, the engine's): a reload runs
    // them in the same order as a first load does, after app.js
    var root = document.documentElement.cloneNode(true);
    root.querySelectorAll("script[data-added]").forEach(function (s) { s.remove(); });
    // nor an offer of the version waiting now: the copy is read when this version is the one
    // running, where its button would do nothing. Nor what the scripts lay over the page for a
    // moment (cards in flight, a toast) or draw when asked (the offline setting: its box's tick
    // is not an attribute, and a slot found filled would not be drawn again)
    root.querySelectorAll("[data-update], .motion-ghosts, .motion-cascade, .motion-burst, .toast")
      .forEach(function (el) { el.remove(); });
    root.classList.remove("motion-won", "motion-swapped");
    root.querySelectorAll("[data-offline-setting]").forEach(function (el) {
      el.replaceChildren();
      el.removeAttribute("class");
      el.removeAttribute("style");
      el.hidden = true;
    });
    var html = "<!doctype html>\n" + root.outerHTML;
    caches.open("tretten-pages").then(function (cache) {
      return cache.put(location.href, new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }));
    }).catch(function () {});
  }
  // The page for pages not kept (templates/offline.html): the player's games this device keeps,
  // named as their pages name them (the game, its deal), and the start page's link only where
  // that page is kept (a link to a second "No connection" was no way back)
  var notKept = document.querySelector("[data-offline-page]");
  if (notKept && window.caches) {
    caches.open("tretten-pages").then(function (cache) {
      cache.match("/", { ignoreVary: true }).then(function (hit) {
        var start = notKept.querySelector("[data-start-page]");
        if (!hit && start) start.remove();
      });
      return cache.keys().then(function (keys) {
        var games = keys.filter(function (k) { return new URL(k.url).pathname.indexOf("/games/") === 0; });
        return Promise.all(games.map(function (k) {
          return cache.match(k, { ignoreVary: true }).then(function (r) { return r && r.status === 200 ? r.text() : ""; })
            .then(function (html) {
              var doc = new DOMParser().parseFromString(html, "text/html"), deal = doc.querySelector("#share span");
              var name = (doc.title || "").replace(/ · Tretten$/, "");
              return name ? { url: new URL(k.url).pathname, name: deal ? name + " · " + deal.textContent.trim() : name } : null;
            });
        }));
      });
    }).then(function (found) {
      var list = notKept.querySelector("[data-kept-games] ul");
      (found || []).filter(Boolean).forEach(function (game) {
        var item = document.createElement("li"), link = document.createElement("a");
        link.href = game.url;
        link.textContent = game.name;
        item.appendChild(link);
        list.appendChild(item);
      });
      notKept.querySelector("[data-kept-games]").hidden = !list.children.length;
    }).catch(function () {});
  }

  // A deal ready to play is kept at its own address (a share link, a new deal's); its first move
  // makes it a stored game, whose address the page takes. That address is kept from then on as
  // the way to the game: offline, the deal's at its start was found there, and moves made on it
  // were dropped on return (the player's game of the deal was in play)
  var dealAt = null;
  function followDeal() {
    var b = document.getElementById("board");
    if (!b || !window.caches) return;
    if (!b.getAttribute("data-game-id")) { dealAt = location.href; return; }
    if (!dealAt || dealAt === location.href) return;
    var from = dealAt, to = location.href;
    dealAt = null;
    caches.open("tretten-pages").then(function (cache) { return cache.put(from, Response.redirect(to, 303)); })
      .catch(function () {});
  }
  followDeal();
  // when the page is idle: a tap's answer never waits for the copy. Once for the swaps of one
  // answer (the board and its out-of-band parts each settle): one write of the page, not one each
  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 200); }, keeping = false;
  document.addEventListener("htmx:afterSettle", function () {
    followDeal();
    if (keeping || !document.getElementById("board")) return;
    keeping = true;
    idle(function () { keeping = false; keepPage(); });
  });
  var had = !!window.TrettenHadWorker;
  sw.addEventListener("controllerchange", function () {
    if (!had) { had = true; keepPage(); return; }  // the first worker: the page is as it was
    if (asked) { location.reload(); return; }      // the player tapped "New version: reload"
    // let in as the page before this one was left: this page, loaded since, is of the new
    // version already. Let in by another tab: this page runs the older scripts until reloaded
    if (letIn()) {
      try { sessionStorage.removeItem(UPDATE); } catch (e) { /* private mode */ }
      offers += 1;  // an offer on its way is void
      document.querySelectorAll("[data-update]").forEach(function (el) { el.remove(); });
    } else offerUpdate(null);
    keepPage();
  });
  if (sw.controller && !had) { had = true; keepPage(); }  // taken over before this script came

  // An update (a deploy changed /sw.js) is let in at a calm moment, the conventional Workbox
  // way: the new worker waits (it never skips waiting by itself) until the player taps "New
  // version: reload" (a small button at the end of the site's links, where it covers nothing and
  // moves nothing on the table), or until the page is left (a link, a reload, the tab closed):
  // the next page is the new version's. Moves waiting are kept through the reload (the tab's
  // sessionStorage, offline play's localStorage) and sent by the new version.
  var UPDATE = "tretten.update", LEFT_MS = 30000, asked = false, waiting = null, offers = 0;
  function letIn() {  // the page before this one, in this tab, let the waiting worker in as it was left
    try { return Date.now() - Number(sessionStorage.getItem(UPDATE) || 0) < LEFT_MS; } catch (e) { return false; }
  }
  function offerUpdate(worker) {
    if (document.querySelector("[data-update]")) return;
    var offer = offers;
    kept("/offline/words", KEY + ".words:" + document.documentElement.lang).then(function (w) {
      var nav = document.querySelector("header.site nav");
      if (!nav || !w.update || offer !== offers || document.querySelector("[data-update]")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "update-ready";
      button.setAttribute("data-update", "");
      button.textContent = "↻ " + w.update;
      button.setAttribute("aria-label", w.update_label || w.update);
      button.title = w.update_label || w.update;
      button.addEventListener("click", function () {
        asked = true;
        button.disabled = true;
        if (worker && worker.state === "installed") worker.postMessage({ type: "SKIP_WAITING" });
        else location.reload();  // the new version holds the page already: its scripts come with a reload
      });
      nav.appendChild(button);
    }).catch(function () { /* no words, no button: the next page is the new version */ });
  }
  // the registration app.js asked for (an app.js older than this script, kept offline, asked none)
  (window.TrettenRegistered || sw.getRegistration()).then(function (reg) {
    if (!reg) return;
    waiting = function () { return reg.waiting; };
    function watch(worker) {
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed" && sw.controller && !letIn()) offerUpdate(worker);
      });
    }
    // still waiting as this page loads: the page before let it in (it is on its way; asked again,
    // this page being the new version's already), or it waits for the player
    if (reg.waiting && sw.controller) {
      if (letIn()) reg.waiting.postMessage({ type: "SKIP_WAITING" });
      else offerUpdate(reg.waiting);
    }
    if (reg.installing) watch(reg.installing);
    reg.addEventListener("updatefound", function () { if (reg.installing) watch(reg.installing); });
  }).catch(function () {});
  addEventListener("pagehide", function () {
    var worker = waiting && waiting();
    if (!worker || asked) return;
    try { sessionStorage.setItem(UPDATE, String(Date.now())); } catch (e) { /* private mode */ }
    worker.postMessage({ type: "SKIP_WAITING" });
  });

  var installed = matchMedia("(display-mode: standalone)").matches;
  function on() { try { return localStorage.getItem(KEY) === "on" || installed; } catch (e) { return installed; } }
  function turn(value) { try { localStorage.setItem(KEY, value); } catch (e) { /* private mode */ } }
  // what offline play keeps, engine.js's address among it (offline: the list kept last time)
  function kept(url, key) {
    return fetch(url, { credentials: "same-origin" }).then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ } return value; })
      .catch(function (error) { var copy = localStorage.getItem(key); if (copy) return JSON.parse(copy); throw error; });
  }
  function load() {
    if (document.querySelector("script[data-engine]")) return;
    kept("/offline/files.json", KEY + ".files").then(function (f) {
      if (document.querySelector("script[data-engine]")) return;
      // whole games offline (offline-play.js) first, so it hears the engine arrive
      var play = document.createElement("script");
      play.src = f.scripts.play;
      play.async = false;
      play.setAttribute("data-added", "");
      document.head.appendChild(play);
      var script = document.createElement("script");
      script.async = false;
      script.src = f.scripts.engine;
      script.setAttribute("data-engine", "");
      script.setAttribute("data-added", "");
      document.head.appendChild(script);
    }).catch(function () { say("failed"); });
  }
  // the setting, drawn when the settings are opened, in the page's language
  var words = null, shown = null;
  function say(key) {
    if (!shown) return;
    shown.textContent = (words && words[key]) || "";
    shown.setAttribute("data-offline-state", key);
  }
  window.TrettenOffline = { say: say };
  window.addEventListener("appinstalled", function () { turn("on"); load(); });
  function draw(slot) {
    kept("/offline/words", KEY + ".words:" + document.documentElement.lang).then(function (w) {
      if (slot.firstChild) return;
      words = w;
      var label = document.createElement("label"), box = document.createElement("input");
      label.className = "check";
      box.type = "checkbox";
      box.setAttribute("data-offline-toggle", "");
      box.checked = on();
      label.append(box, " " + w.label);
      shown = document.createElement("p");
      shown.className = "muted offline-state";
      shown.setAttribute("aria-live", "polite");
      shown.style.margin = "0 0 0 .8rem";  // its look here: the pages' stylesheet stays as light as it was
      slot.className = "settings-form offline-setting";
      slot.style.borderTop = "1px solid color-mix(in srgb, currentColor 20%, transparent)";
      slot.style.paddingTop = ".4rem";
      slot.append(label, shown);
      say((window.TrettenEngine && window.TrettenEngine.state) || "off");
      slot.hidden = false;
      box.addEventListener("change", function () {
        turn(box.checked ? "on" : "off");
        if (box.checked) load();
        document.dispatchEvent(new CustomEvent("tretten:offline", { detail: box.checked }));
      });
    }).catch(function () { /* offline before the words were ever kept: no setting */ });
  }
  var slot = document.querySelector("[data-offline-setting]");
  var panel = slot && slot.closest("details");
  if (slot && panel) {
    if (panel.open) draw(slot);
    else panel.addEventListener("toggle", function () { if (panel.open) draw(slot); });
  }
  if (on()) load();
  // turned on in another tab of the app: this one gets ready too
  addEventListener("storage", function (event) { if (event.key === KEY && event.newValue === "on") load(); });
})();
