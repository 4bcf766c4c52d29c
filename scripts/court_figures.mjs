#!/usr/bin/env node
// Builds static/cards/KH.svg and the others: the court figures (J, Q, K of each suit) the card
// faces show, from Adrian Kennard's public-domain deck as packaged by @letele/playing-cards
// (CC0-1.0, a devDependency pinned in package.json). The package ships React components; this
// reads them with a stand-in for React whose createElement returns a tree, and keeps only the
// figure in its frame: our own corner indices and pips stay (static/css/cards.css), larger at
// small sizes.
// A file is one figure, drawn to fill the box it is shown in (an <img> in templates/_cards.html,
// loaded lazily, so a board fetches only the figures it shows). The suit's own pips in a drawing
// are in the deck's colour for that suit (static/css/theme.css's light values; the dark theme dims
// the whole figure): KD-4.svg and KC-4.svg and the like are the four-colour deck's.
//
//   node scripts/court_figures.mjs           writes the eighteen files and the two sheets
//   node scripts/court_figures.mjs --stdout  prints them as JSON, name to text
//                                            (tests/web/test_card_faces.py compares)
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE = join(ROOT, "node_modules", "@letele", "playing-cards");
const OUT = join(ROOT, "static", "cards");

function components() {
  const source = readFileSync(join(PACKAGE, "dist", "index.esm.js"), "utf8");
  const exports = source.match(/^export \{([^}]*)\};?\s*$/m);
  if (!exports) throw new Error("no export list in the package's module");
  const body = source
    .replace(/^import .*$/gm, "")
    .replace(exports[0], "return {" + exports[1].split(",").map(pair => {
      const [local, name] = pair.trim().split(/\s+as\s+/);
      return `${JSON.stringify(name)}: ${local}`;
    }).join(", ") + "};");
  const React = { createElement: (type, props, ...children) => ({ type, props: props || {}, children: children.flat().filter(c => c != null && c !== false) }) };
  return new Function("React", "_extends", body)(React, Object.assign);
}

// Path data to whole units. The drawings are 1300 by 2000 units for a frame at most about 90 px
// wide on screen, so a unit is under a tenth of a pixel; the package's three decimals are half the
// file. Each point is rounded where it lies (absolute), then written relative to the rounded
// point before it, so no error adds up along a path.
const ARGS = { M: 2, L: 2, H: 1, V: 1, C: 6, S: 4, Q: 4, T: 2, A: 7, Z: 0 };

function parsePath(d) {
  const out = [];
  let i = 0;
  const number = () => {
    const m = /^[\s,]*(-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)/i.exec(d.slice(i));
    if (!m) throw new Error(`a number expected at ${i} of ${d.slice(i, i + 20)}`);
    i += m[0].length;
    return parseFloat(m[1]);
  };
  const flag = () => {
    const m = /^[\s,]*([01])/.exec(d.slice(i));
    if (!m) throw new Error(`an arc flag expected at ${i}`);
    i += m[0].length;
    return +m[1];
  };
  let command = null;
  while (i < d.length) {
    const m = /^[\s,]*([MmLlHhVvCcSsQqTtAaZz])?/.exec(d.slice(i));
    i += m[0].length;
    if (m[1]) command = m[1];
    else if (i >= d.length) break;
    if (!command) throw new Error("path data must begin with a command");
    const kind = command.toUpperCase();
    const args = kind === "A"
      ? [number(), number(), number(), flag(), flag(), number(), number()]
      : Array.from({ length: ARGS[kind] }, number);
    out.push([command, args]);
    if (kind === "Z") command = null;  // a number after Z needs a command of its own
    else if (command === "M") command = "L";  // further pairs after a moveto are linetos
    else if (command === "m") command = "l";
  }
  return out;
}

function roundPath(d, unit = 1) {
  let x = 0, y = 0, sx = 0, sy = 0;  // the current point and the subpath's start, exact
  let rx = 0, ry = 0, rsx = 0, rsy = 0;  // the same, as written (rounded)
  const parts = [];
  for (const [command, args] of parsePath(d)) {
    const kind = command.toUpperCase();
    const rel = command !== kind;
    if (kind === "Z") {
      x = sx; y = sy; rx = rsx; ry = rsy;
      parts.push(["z", []]);
      continue;
    }
    // every coordinate pair made absolute, then rounded; written relative to the rounded point
    const absolute = [];
    if (kind === "H") { const nx = rel ? x + args[0] : args[0]; absolute.push(nx); }
    else if (kind === "V") { const ny = rel ? y + args[0] : args[0]; absolute.push(ny); }
    else if (kind === "A") absolute.push(args[0], args[1], args[2], args[3], args[4], rel ? x + args[5] : args[5], rel ? y + args[6] : args[6]);
    else for (let k = 0; k < args.length; k += 2) absolute.push(rel ? x + args[k] : args[k], rel ? y + args[k + 1] : args[k + 1]);
    const r = v => Math.round(v / unit);
    let written;
    if (kind === "H") { written = [r(absolute[0]) - rx]; x = absolute[0]; rx += written[0]; }
    else if (kind === "V") { written = [r(absolute[0]) - ry]; y = absolute[0]; ry += written[0]; }
    else if (kind === "A") {
      const ex = r(absolute[5]), ey = r(absolute[6]);
      written = [r(absolute[0]) || 1, r(absolute[1]) || 1, Math.round(absolute[2]), absolute[3], absolute[4], ex - rx, ey - ry];
      x = absolute[5]; y = absolute[6]; rx = ex; ry = ey;
    } else {
      written = absolute.map((v, k) => r(v) - (k % 2 ? ry : rx));
      x = absolute[absolute.length - 2]; y = absolute[absolute.length - 1];
      rx = r(x); ry = r(y);
    }
    if (kind === "M") { sx = x; sy = y; rsx = rx; rsy = ry; }
    parts.push([kind.toLowerCase(), written]);
  }
  // the first moveto of a path is absolute, relative to the origin: the same numbers
  return write(shorten(parts));
}

// Path data as short as SVG writes it, drawing the same: a line along an axis as "h" or "v", and
// a command's letter left out where it repeats the one before (after "m", "l" is implied).
function write(parts) {
  let last = null;
  return parts.map(([kind, written]) => {
    if (kind === "l" && written[0] === 0) [kind, written] = ["v", [written[1]]];
    else if (kind === "l" && written[1] === 0) [kind, written] = ["h", [written[0]]];
    const implied = written.length > 0 && (kind === last && kind !== "m" || kind === "l" && last === "m");
    last = kind === "l" && last === "m" && implied ? "m" : kind;
    return (implied ? "" : kind) + written.map((v, k) => ((k || implied) && v >= 0 ? " " : "") + v).join("");
  }).join("");
}

// At UNIT units many of the drawing's segments have become points (every number 0) or straight
// lines (a curve whose control points are its ends): a point is left out, unless it is all its
// subpath draws (a dot), a straight curve written as a line. A segment a smooth curve ("s")
// after it reflects is kept as it is.
function shorten(parts) {
  const moves = kind => !"mz".includes(kind);
  const still = ([kind, w]) => kind === "a" ? !w[5] && !w[6] : w.every(v => v === 0);
  const out = [];
  parts.forEach(([kind, written], i) => {
    const next = parts[i + 1]?.[0];
    const reflected = next === "s" || next === "t";
    if (moves(kind) && !reflected && still([kind, written])) {
      let start = i, end = i;
      while (start > 0 && moves(parts[start - 1][0])) start--;
      while (end + 1 < parts.length && moves(parts[end + 1][0])) end++;
      if (parts.slice(start, end + 1).some(part => !still(part))) return;
    }
    if (kind === "c" && !reflected && near(written[4], written[5], written[0], written[1]) && near(written[4], written[5], written[2], written[3])) {
      kind = "l"; written = written.slice(4);
    }
    const last = out[out.length - 1];
    if (kind === "l" && last?.[0] === "l" && !reflected && near(last[1][0] + written[0], last[1][1] + written[1], last[1][0], last[1][1])) {
      out[out.length - 1] = ["l", [last[1][0] + written[0], last[1][1] + written[1]]];
      return;
    }
    out.push([kind, written]);
  });
  return out;
}

// Whether the point (px, py) lies within TOLERANCE units of the line from (0, 0) to (x, y)
const TOLERANCE = 1;
function near(x, y, px, py) {
  const length = Math.hypot(x, y);
  if (!length) return Math.hypot(px, py) <= TOLERANCE;
  const along = (px * x + py * y) / length;
  if (along < -TOLERANCE || along > length + TOLERANCE) return false;
  return Math.abs(px * y - py * x) / length <= TOLERANCE;
}

// The artwork's drawings are in units of ARTWORK's box, 1300 by 2000 for a frame shown at most
// 74 px * .68 wide (3x that in device pixels on a phone's screen): a point written to UNIT units
// is still within a device pixel of where it was, and the numbers are a digit shorter.
const ARTWORK = "0 0 1300 2000";
const UNIT = 8;

// React's names for the attributes the package uses; SVG's own camelCase names (viewBox,
// preserveAspectRatio, patternUnits) stay as they are
const ATTRIBUTE = { xlinkHref: "href", className: "class" };
const HYPHENATED = /^(stroke|fill|font|text|vector)[A-Z]/;
const attrName = key => ATTRIBUTE[key] || (HYPHENATED.test(key) ? key.replace(/[A-Z]/g, c => "-" + c.toLowerCase()) : key);
const escape = value => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function render(node, rename, unit = 1) {
  if (typeof node === "string") return escape(node);
  if (node.type === "symbol" && node.props.viewBox === ARTWORK) unit = UNIT;
  const scaled = node.type === "path" && unit !== 1;
  const attrs = Object.entries(node.props)
    .filter(([key]) => !key.startsWith("aria-") && key !== "xmlns" && key !== "xmlnsXlink")
    .map(([key, value]) => {
      if (key === "id") value = rename(value);
      if (key === "xlinkHref") value = "#" + rename(value.slice(1));
      if (key === "d") value = roundPath(value, scaled ? unit : 1);
      if (key === "strokeWidth" && scaled) value = +(value / unit).toFixed(3);
      return ` ${attrName(key)}="${escape(value)}"`;
    }).join("") + (scaled ? ` transform="scale(${unit})"` : "");
  const inner = node.children.map(child => render(child, rename, unit)).join("");
  return inner ? `<${node.type}${attrs}>${inner}</${node.type}>` : `<${node.type}${attrs}/>`;
}

// The suits' colours, as static/css/theme.css's --red, --ink, --blue and --green (light theme);
// tests/web/test_card_faces.py holds them to it
const INK = { H: "#b3001b", D: "#b3001b", S: "#1b1b1b", C: "#1b1b1b" };
const FOUR_COLOUR = { D: "#0645ad", C: "#0b6b2c" };

// The frame the figure is drawn in, on Kennard's card of 240 by 336
const FRAME = { x: -82.4, y: -130.4, width: 164.8, height: 260.8 };
const inFrame = use => use.props.width === FRAME.width && use.props.height === FRAME.height;

function figure(card, code, colour) {
  const [defs] = card.children.filter(child => child.type === "defs");
  const symbols = new Map(defs.children.filter(c => c.props.id).map(c => [c.props.id, c]));
  const rename = id => `${code}-${id.replace(/^.*_svg__/, "")}`;
  // the artwork: every layer laid in the frame (each twice, the second turned round), then the frame's line
  const layers = [];
  const walk = node => {
    if (typeof node === "string") return;
    if (node.type === "use" && (inFrame(node) || node.props.stroke)) layers.push(node);
    else if (node.type === "g") node.children.forEach(walk);
  };
  card.children.filter(child => child.type !== "defs").forEach(walk);
  const used = new Set();
  const mark = id => {
    if (used.has(id)) return;
    used.add(id);
    const visit = node => {
      if (typeof node === "string") return;
      if (node.props.xlinkHref) mark(node.props.xlinkHref.slice(1));
      node.children.forEach(visit);
    };
    visit(symbols.get(id));
  };
  layers.forEach(use => mark(use.props.xlinkHref.slice(1)));
  const kept = [...symbols.values()].filter(s => used.has(s.props.id)).map(s => {
    if (s.type === "symbol" && s.props.viewBox === "-600 -600 1200 1200") {
      // the suit's pip, as the artwork holds it: the card's colour
      return { ...s, children: s.children.map(p => ({ ...p, props: { ...p.props, fill: colour } })) };
    }
    return s;
  });
  const frame = layers.filter(use => !inFrame(use)).map(use => ({
    ...use, props: { ...use.props, stroke: "#44F", vectorEffect: "non-scaling-stroke" },
  }));
  const art = layers.filter(inFrame);
  return { defs: kept.map(s => render(s, rename)).join(""), layers: [...art, ...frame].map(use => render(use, rename)).join("") };
}

const deck = components();
const version = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).version;
const files = {};
const drawing = (code, body) => `<svg xmlns="http://www.w3.org/2000/svg" `
  + `viewBox="${FRAME.x} ${FRAME.y} ${FRAME.width} ${FRAME.height}" preserveAspectRatio="none">`
  + `<!-- ${code}: a court figure from Adrian Kennard's playing cards (public domain), as packaged by `
  + `@letele/playing-cards ${version} (CC0-1.0); built by scripts/court_figures.mjs -->${body}</svg>\n`;
const alone = ({ defs, layers }) => `<defs>${defs}</defs>${layers}`;
// The sheet of all twelve, for a board that shows every court card (Gaps): one file, one request,
// and gzip finds what the figures share, 43 KB as sent against 51 KB for twelve files. A figure
// is a <view> of it (an <img> of courts.svg#KH shows the king of hearts); the figures lie side by
// side, a frame's width and a gap apart, so that no edge of one is drawn in the next one's view.
// Each in a viewport of its own (a nested <svg>), which Chromium leaves out when it is not in the
// view: with the figures only moved (<g transform>), each image drew all twelve, and laying a
// Gaps board took twice as long (269 ms against 126 for twelve files; now alike).
const STEP = 200;
function sheet(figures, note) {
  const views = figures.map(([code], i) => `<view id="${code}" viewBox="${FRAME.x + i * STEP} ${FRAME.y} ${FRAME.width} `
    + `${FRAME.height}" preserveAspectRatio="none"/>`).join("");
  const laid = figures.map(([, drawn], i) => `<svg x="${FRAME.x + i * STEP}" y="${FRAME.y}" width="${FRAME.width}" `
    + `height="${FRAME.height}" viewBox="${FRAME.x} ${FRAME.y} ${FRAME.width} ${FRAME.height}" overflow="visible">${drawn.layers}</svg>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${FRAME.x} ${FRAME.y} ${FRAME.width} ${FRAME.height}" `
    + `preserveAspectRatio="none"><!-- the twelve court figures${note}, one a view (courts.svg#KH): Adrian Kennard's `
    + `playing cards (public domain), as packaged by @letele/playing-cards ${version} (CC0-1.0); built by `
    + `scripts/court_figures.mjs --><defs>${figures.map(([, drawn]) => drawn.defs).join("")}</defs>${views}${laid}</svg>\n`;
}
const two = [], four = [];
for (const suit of "CDHS") {
  for (const rank of "JQK") {
    const name = suit + rank.toLowerCase();
    if (!deck[name]) throw new Error(`the package has no ${name}`);
    const code = rank + suit;
    const drawn = figure(deck[name]({}), code, INK[suit]);
    files[`${code}.svg`] = drawing(code, alone(drawn));
    two.push([code, drawn]);
    if (FOUR_COLOUR[suit]) {
      const other = figure(deck[name]({}), code, FOUR_COLOUR[suit]);
      files[`${code}-4.svg`] = drawing(code, alone(other));
      four.push([code, other]);
    } else four.push([code, drawn]);
  }
}
files["courts.svg"] = sheet(two, "");
files["courts-4.svg"] = sheet(four, " of the four-colour deck");
if (process.argv.includes("--stdout")) process.stdout.write(JSON.stringify(files));
else {
  mkdirSync(OUT, { recursive: true });
  for (const [name, svg] of Object.entries(files)) writeFileSync(join(OUT, name), svg);
  const bytes = Object.values(files).reduce((sum, svg) => sum + svg.length, 0);
  console.log(`${OUT}: ${Object.keys(files).length} figures, ${bytes} bytes`);
}
