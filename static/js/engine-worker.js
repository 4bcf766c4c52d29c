// The offline engine's worker (docs/architecture.md, "Offline"): Pyodide runs the app's own
// app/engine, the board's view models and templates, unpacked from /offline/engine.zip
// (app/web/views/offline_bundle.py), and answers static/js/engine.js one message at a time. No rule
// is written here: each call goes to app/web/views/offline_engine.py by name.
import { loadPyodide } from "/static/vendor/pyodide/pyodide.mjs";

let call = null;

async function start(files) {
  const pyodide = await loadPyodide({ indexURL: new URL(files.pyodide, self.location.origin).href });
  const zip = await fetch(files.engine_url);
  if (!zip.ok) throw new Error("the engine's bundle answered " + zip.status);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/tretten" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/tretten')\nfrom app.web.views import offline_engine");
  call = pyodide.globals.get("offline_engine").call;
  return { python: pyodide.runPython("import sys; sys.version.split()[0]"), pyodide: pyodide.version };
}

let queue = Promise.resolve();
self.onmessage = (event) => {
  const { id, fn, payload } = event.data;
  // one call at a time, in the order they came
  queue = queue.then(async () => {
    try {
      const result = fn === "start" ? await start(payload) : JSON.parse(call(fn, JSON.stringify(payload)));
      self.postMessage({ id, ok: true, result });
    } catch (error) {
      self.postMessage({ id, ok: false, error: String(error && error.message || error) });
    }
  });
};
