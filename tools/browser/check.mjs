// Reads the built site as its readers do, in the system Chromium:
// axe-core at a desktop and a phone width, the size of chart text as drawn,
// sideways scrolling, and screenshots in both themes.
//
//   node check.mjs SITE_DIR OUT_DIR PAGE.html[:light]...
//
// A page given as PAGE.html:light is read in the light theme only (the
// print page: long, and printed in the light colours anyway).
//
// Writes OUT_DIR/report.json and screenshots OUT_DIR/NAME-WIDTH-THEME.png;
// prints one line per problem and exits 1 if there is any.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import puppeteer from "puppeteer-core";

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const WIDTHS = [1366, 390];
// Smallest chart text, in CSS pixels, at each width.
const MIN_TEXT = { 1366: 12, 390: 10 };

const [site, out, ...pages] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"],
});
const problems = [];
const report = [];
try {
  for (const arg of pages) {
    const [page, only] = arg.split(":");
    for (const width of WIDTHS) {
      for (const theme of only ? [only] : ["light", "dark"]) {
        const tab = await browser.newPage();
        await tab.setViewport({ width, height: 900 });
        await tab.emulateMediaFeatures([{ name: "prefers-color-scheme", value: theme }]);
        await tab.goto("file://" + path.resolve(site, page), { waitUntil: "load" });
        const seen = await tab.evaluate(() => {
          const doc = document.documentElement;
          let smallest = Infinity;
          let charts = 0;
          for (const svg of document.querySelectorAll("svg.chart")) {
            const box = svg.getBoundingClientRect();
            if (box.width === 0) continue;
            charts++;
            const scale = box.width / svg.viewBox.baseVal.width;
            for (const text of svg.querySelectorAll("text")) {
              const size = parseFloat(getComputedStyle(text).fontSize) * scale;
              smallest = Math.min(smallest, size);
            }
          }
          return {
            charts,
            smallest: charts ? Math.round(smallest * 10) / 10 : null,
            sideways: doc.scrollWidth > doc.clientWidth + 1,
          };
        });
        const entry = { page, width, theme, ...seen };
        if (seen.charts && seen.smallest < MIN_TEXT[width]) {
          problems.push(`${page} at ${width}px (${theme}): chart text ${seen.smallest}px, under ${MIN_TEXT[width]}px`);
        }
        if (seen.sideways) {
          problems.push(`${page} at ${width}px (${theme}): the page scrolls sideways`);
        }
        await tab.addScriptTag({ content: AXE });
        const axe = await tab.evaluate(async () => {
          const result = await window.axe.run(document, { resultTypes: ["violations"] });
          return result.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
            count: v.nodes.length,
          }));
        });
        entry.axe = axe;
        for (const v of axe) {
          problems.push(`${page} at ${width}px (${theme}): axe ${v.id} (${v.count}x) ${v.nodes.join(", ")}`);
        }
        const name = page.replace(/\.html$/, "").replace(/[\/]/g, "-");
        await tab.screenshot({
          path: path.join(out, `${name}-${width}-${theme}.png`),
          fullPage: false,
          clip: { x: 0, y: 0, width, height: Math.min(2400, await tab.evaluate(() => document.documentElement.scrollHeight)) },
          captureBeyondViewport: true,
        });
        report.push(entry);
        await tab.close();
      }
    }
  }
} finally {
  await browser.close();
}
fs.writeFileSync(path.join(out, "report.json"), JSON.stringify(report, null, 1));
for (const p of problems) console.log(p);
console.log(`${report.length} page views checked, ${problems.length} problems`);
process.exit(problems.length ? 1 : 0);
