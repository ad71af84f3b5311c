// Reads the built site as its readers do, in one launch of the system
// Chromium, several pages at a time: axe-core at a desktop and a phone
// width, the size of chart text as drawn, every chart text inside its
// drawing and whole (each series named whole in its key), sideways
// scrolling, wide tables that take the width there is (naming the columns
// their scroll box cuts), screenshots in both themes, the
// interactive elements used as a reader uses them (interact.mjs: what
// shows after hover, focus, tap and Escape, by computed style and box),
// and (with --pdf) the print page printed to PDF.
//
//   node check.mjs SITE_DIR OUT_DIR [--pdf PAGE.html] PAGE.html[:light]...
//
// A page given as PAGE.html:light is read in the light theme only (the
// print page: long, and printed in the light colours anyway).
//
// Each page loads once per width, in its own tab; the themes are media
// emulation on that load. At each width axe runs
// every rule in the light theme, and in the dark theme the rules about
// colour (the dark theme swaps colour variables only, which the Rust test
// checks in the stylesheets, so no other rule can answer differently).
//
// Writes OUT_DIR/report.json, screenshots OUT_DIR/NAME-WIDTH-THEME.png and
// OUT_DIR/print.pdf; prints one line per problem and exits 1 if there is any.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import puppeteer from "puppeteer-core";
import { interact } from "./interact.mjs";

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const WIDTHS = [1366, 390];
// Smallest chart text, in CSS pixels, at each width.
const MIN_TEXT = { 1366: 12, 390: 10 };
// The axe rules that read colours: all that can differ between themes.
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
// Tabs at work at once: more than the cores only queues in Chromium.
const TABS = Math.max(2, Math.min(4, os.availableParallelism() + 1));

const args = process.argv.slice(2);
const [site, out] = args;
let pdf = null;
const pages = [];
for (let i = 2; i < args.length; i++) {
  if (args[i] === "--pdf") pdf = args[++i];
  else pages.push(args[i]);
}
fs.mkdirSync(out, { recursive: true });

const problems = [];
const report = [];
const url = (page) => "file://" + path.resolve(site, page);

/// The chart text sizes and boxes, tables and sideways scrolling of the
/// page as laid out now.
function measure() {
  const doc = document.documentElement;
  let smallest = Infinity;
  let charts = 0;
  // Chart text that leaves its drawing (the SVG clips it) or is cut short,
  // and series whose names the key does not show whole.
  const cut = [];
  const spaced = (s) => s.replace(/\s+/g, " ").trim();
  for (const svg of document.querySelectorAll("svg.chart")) {
    const box = svg.getBoundingClientRect();
    if (box.width === 0) continue;
    charts++;
    const scale = box.width / svg.viewBox.baseVal.width;
    const name = svg.querySelector("title").textContent.slice(0, 40);
    const words = [];
    for (const text of svg.querySelectorAll("text")) {
      const size = parseFloat(getComputedStyle(text).fontSize) * scale;
      smallest = Math.min(smallest, size);
      const said = spaced(text.textContent);
      words.push(said);
      const r = text.getBoundingClientRect();
      const out = Math.max(box.left - r.left, r.right - box.right, box.top - r.top, r.bottom - box.bottom);
      if (out > 0.5) cut.push(`"${name}": "${said}" leaves the chart by ${Math.round(out)}px`);
      if (/(…|\.\.\.)$/.test(said)) cut.push(`"${name}": "${said}" is cut short`);
    }
    // A key (two series or more) names each series whole, wrapped or not.
    // A heatmap's rows are numbered on a phone and named in its table.
    const series = [...svg.querySelectorAll("g.series[data-series]")].map((g) => spaced(g.dataset.series));
    const all = words.join(" ");
    if (svg.dataset.kind !== "heatmap" && series.length > 1) {
      for (const s of series.filter((s) => !all.includes(s))) {
        cut.push(`"${name}": the key does not show "${s}" whole`);
      }
    }
  }
  // A table that scrolls must have taken the width there is: up to the
  // table of contents where one is shown, else to the layout's edge.
  const layout = document.querySelector(".layout");
  const toc = document.querySelector(".toc");
  let edge = null;
  if (layout) {
    const style = getComputedStyle(layout);
    edge = layout.getBoundingClientRect().right - parseFloat(style.paddingRight);
    if (toc && toc.getBoundingClientRect().width > 0) {
      edge = toc.getBoundingClientRect().left - parseFloat(style.columnGap || 0);
    }
  }
  // Such a table's columns cut by its scroll box are named.
  const cramped = [];
  for (const wrap of document.querySelectorAll(".table-wrap, .md-table")) {
    if (edge === null || wrap.scrollWidth <= wrap.clientWidth + 1) continue;
    const right = wrap.getBoundingClientRect().right;
    const unused = Math.round(edge - right);
    if (unused > 16) {
      const block = wrap.closest(".table-block");
      const caption = block && block.querySelector(".table-caption");
      const columns = [...wrap.querySelectorAll("thead tr:last-child th")]
        .filter((th) => th.getBoundingClientRect().right > right + 1)
        .map((th) => `"${spaced(th.textContent)}"`);
      cramped.push(
        `"${caption ? caption.textContent.slice(0, 40) : "a markdown table"}" ` +
          `(${unused}px unused; cut: ${columns.join(", ") || "its last column"})`,
      );
    }
  }
  return {
    charts,
    smallest: charts ? Math.round(smallest * 10) / 10 : null,
    cut,
    cramped,
    sideways: doc.scrollWidth > doc.clientWidth + 1,
    height: doc.scrollHeight,
  };
}

async function axe(tab, rules) {
  return tab.evaluate(async (rules) => {
    const options = { resultTypes: ["violations"] };
    if (rules) options.runOnly = { type: "rule", values: rules };
    // Experimental in axe, but it is how a focusable element with no role
    // (a glossary term once was one) is found: screen readers may skip it.
    else options.rules = { "focus-order-semantics": { enabled: true } };
    const result = await window.axe.run(document, options);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
      count: v.nodes.length,
    }));
  }, rules);
}

// Only the front tab draws frames, so screenshots take turns in front;
// everything else (layout, axe, print) works in any tab.
let front = Promise.resolve();
function inFront(tab, work) {
  const turn = front.then(async () => {
    await tab.bringToFront();
    return work();
  });
  front = turn.catch(() => {});
  return turn;
}

/// One page at one width, loaded once: every theme.
async function readPage(browser, arg, width) {
  const [page, only] = arg.split(":");
  const themes = only ? [only] : ["light", "dark"];
  const tab = await browser.newPage();
  try {
    await tab.setViewport({ width, height: 900 });
    await tab.emulateMediaFeatures([{ name: "prefers-color-scheme", value: themes[0] }]);
    await tab.goto(url(page), { waitUntil: "load" });
    await tab.addScriptTag({ content: AXE });
    for (const [i, theme] of themes.entries()) {
      const started = Date.now();
      await tab.emulateMediaFeatures([{ name: "prefers-color-scheme", value: theme }]);
      const seen = await tab.evaluate(measure);
      const where = `${page} at ${width}px (${theme})`;
      if (seen.charts && seen.smallest < MIN_TEXT[width]) {
        problems.push(`${where}: chart text ${seen.smallest}px, under ${MIN_TEXT[width]}px`);
      }
      if (seen.sideways) problems.push(`${where}: the page scrolls sideways`);
      for (const text of seen.cut) problems.push(`${where}: chart ${text}`);
      for (const table of seen.cramped) {
        problems.push(`${where}: table ${table} scrolls beside room it could take`);
      }
      const rules = i === 0 ? null : COLOUR_RULES;
      const violations = await axe(tab, rules);
      for (const v of violations) {
        problems.push(`${where}: axe ${v.id} (${v.count}x) ${v.nodes.join(", ")}`);
      }
      const name = page.replace(/\.html$/, "").replace(/[\/]/g, "-");
      await inFront(tab, () =>
        tab.screenshot({
          path: path.join(out, `${name}-${width}-${theme}.png`),
          clip: { x: 0, y: 0, width, height: Math.min(2400, seen.height) },
          captureBeyondViewport: true,
        }),
      );
      const { height, cramped, cut, ...shown } = seen;
      report.push({
        page, width, theme, ...shown,
        axe_rules: rules ? rules.join(" ") : "all",
        axe: violations,
        ms: Date.now() - started,
      });
    }
  } finally {
    await tab.close();
  }
}

/// One page at one width in a tab that takes touches: its interactive
/// elements used, what shows checked (interact.mjs). Pages read in one
/// theme only (the print page) are not used this way.
async function usePage(browser, arg, width) {
  const tab = await browser.newPage();
  try {
    const started = Date.now();
    await tab.setViewport({ width, height: 900, hasTouch: true });
    // Several tabs work at once and only one has the window's focus: the
    // others would never match `:focus`.
    const cdp = await tab.createCDPSession();
    await cdp.send("Emulation.setFocusEmulationEnabled", { enabled: true });
    await tab.goto(url(arg), { waitUntil: "load" });
    const used = await interact(tab, width);
    for (const p of used.problems) problems.push(`${arg} at ${width}px: ${p}`);
    report.push({ page: arg, width, theme: "used", checked: used.checked, problems: used.problems, ms: Date.now() - started });
  } finally {
    await tab.close();
  }
}

/// The print page through Chromium's print to PDF, with the page size the
/// stylesheet asks for (as `--print-to-pdf` and `fairdice pdf` do).
async function printPdf(browser, page) {
  const tab = await browser.newPage();
  try {
    const started = Date.now();
    await tab.goto(url(page), { waitUntil: "load" });
    await tab.pdf({ path: path.join(out, "print.pdf"), preferCSSPageSize: true, timeout: 0 });
    report.push({ page, pdf: "print.pdf", ms: Date.now() - started });
  } finally {
    await tab.close();
  }
}

const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  protocolTimeout: 0,
  // Tabs other than the front one must not be throttled: they all work.
  args: [
    "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
  ],
});
try {
  // The longest first, so no long task starts last.
  const size = (arg) => fs.statSync(path.resolve(site, arg.split(":")[0])).size;
  const tasks = [...pages]
    .sort((a, b) => size(b) - size(a))
    .flatMap((arg) => WIDTHS.map((width) => () => readPage(browser, arg, width)));
  for (const arg of pages.filter((a) => !a.includes(":"))) {
    for (const width of WIDTHS) tasks.push(() => usePage(browser, arg, width));
  }
  if (pdf) tasks.unshift(() => printPdf(browser, pdf));
  const workers = Array.from({ length: TABS }, async () => {
    while (tasks.length) await tasks.shift()();
  });
  const failed = (await Promise.allSettled(workers)).filter((w) => w.status === "rejected");
  if (failed.length) throw failed[0].reason;
} finally {
  await browser.close();
}
report.sort((a, b) => (a.page + a.width + a.theme).localeCompare(b.page + b.width + b.theme));
fs.writeFileSync(path.join(out, "report.json"), JSON.stringify(report, null, 1));
for (const p of problems.sort()) console.log(p);
console.log(`${report.length} page views checked, ${problems.length} problems`);
process.exit(problems.length ? 1 : 0);
