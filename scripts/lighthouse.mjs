// `npm run lighthouse`: Lighthouse (mobile, simulated throttling: its default) on home, a content
// page, the directory and a profile, in German and English, against the production build on a fresh
// demo store, with Debian's Chromium. Prints one table: the four category scores, CLS, LCP and TBT,
// the median of `--runs=N` runs per page (default 3), and whether the issue's targets are met
// (performance ≥ 95, accessibility, best practices and SEO 100, CLS < 0.02, LCP ≤ 1.5 s). Lighthouse
// 12 no longer audits installability, so Chromium itself is asked (DevTools' installability errors)
// whether the home page can be installed as an app. Exits 1 when a target is missed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "@playwright/test";
import { buildIfNeeded } from "./build-if-needed.mjs";
import { CHROMIUM_ARGS, findChromium } from "../tests/support/chromium.mjs";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.LIGHTHOUSE_PORT ?? 3377);
const base = `http://127.0.0.1:${port}`;
const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const PAGES = [
  ["home", "/"],
  ["home", "/en"],
  ["content", "/ueber-uns"],
  ["content", "/en/about-us"],
  ["directory", "/practitioners"],
  ["directory", "/en/practitioners"],
  ["profile", "/practitioners/juergen-weiss"],
  ["profile", "/en/practitioners/juergen-weiss"],
].filter(([, p]) => !only || p.includes(only));

const chromePath = findChromium();
if (!chromePath) {
  console.error("No Chromium found: install Debian's (apt-get install chromium) or set CHROMIUM_PATH.");
  process.exit(2);
}

buildIfNeeded();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-lighthouse-"));
const server = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  stdio: ["ignore", "inherit", "inherit"],
});
/**
 * One Lighthouse run in a Chromium of its own (runs sharing a browser failed now and then with
 * NO_NAVSTART here); a run that reports a runtime error is tried again, up to three times.
 */
async function audit(url) {
  for (let attempt = 1; ; attempt++) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ["--headless=new", ...CHROMIUM_ARGS] });
    try {
      const { lhr } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility", "best-practices", "seo"] });
      if (!lhr.runtimeError) return lhr;
      if (attempt === 3) throw new Error(`${url}: ${lhr.runtimeError.message}`);
      console.log(`${url}: ${lhr.runtimeError.code}, trying again`);
    } finally {
      await chrome.kill();
    }
  }
}

let failed = false;
let version = "";
try {
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/readyz`).then((r) => r.ok).catch(() => false)) break;
    if (i > 600) throw new Error("server did not become ready");
    await new Promise((r) => setTimeout(r, 50));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rows = [];
  for (const [type, urlPath] of PAGES) {
    const results = [];
    for (let r = 0; r < runs; r++) {
      results.push(await audit(`${base}${urlPath}`));
      version = results[0].lighthouseVersion;
    }
    const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const metric = (lhr, id) => lhr.audits[id]?.numericValue ?? NaN;
    const row = {
      type,
      path: urlPath,
      performance: median(results.map((l) => score(l, "performance"))),
      accessibility: median(results.map((l) => score(l, "accessibility"))),
      bestPractices: median(results.map((l) => score(l, "best-practices"))),
      seo: median(results.map((l) => score(l, "seo"))),
      cls: median(results.map((l) => metric(l, "cumulative-layout-shift"))),
      lcp: median(results.map((l) => metric(l, "largest-contentful-paint"))),
      tbt: median(results.map((l) => metric(l, "total-blocking-time"))),
    };
    // What kept a category from 100 in the last run: audit ids, for the reader to look up.
    const last = results[results.length - 1];
    row.misses = Object.values(last.categories)
      .flatMap((c) => c.auditRefs.filter((ref) => ref.weight > 0 && (last.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id))
      .filter((id, i, all) => all.indexOf(id) === i);
    row.ok = row.performance >= 95 && row.accessibility === 100 && row.bestPractices === 100 && row.seo === 100 && row.cls < 0.02 && row.lcp <= 1500;
    failed ||= !row.ok;
    rows.push(row);
    console.log(`${urlPath}: perf ${row.performance}, a11y ${row.accessibility}, BP ${row.bestPractices}, SEO ${row.seo}, CLS ${row.cls.toFixed(3)}${row.misses.length ? ` (below 1: ${row.misses.join(", ")})` : ""}`);
  }
  console.log(`\nLighthouse ${version} mobile, median of ${runs} run(s) per page\n`);
  console.log("| page | path | performance | accessibility | best practices | SEO | CLS | LCP ms | TBT ms | targets |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(`| ${r.type} | \`${r.path}\` | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.cls.toFixed(3)} | ${Math.round(r.lcp)} | ${Math.round(r.tbt)} | ${r.ok ? "met" : "missed"} |`);
  const installErrors = await installabilityErrors(`${base}/`);
  console.log(`\nInstallable as an app (Chromium's installability check on /): ${installErrors.length ? `no: ${installErrors.join("; ")}` : "yes"}`);
  failed ||= installErrors.length > 0;
} finally {
  server.kill("SIGTERM");
}

/** Chromium's reasons why a page cannot be installed (none: installable), once its worker controls it. */
async function installabilityErrors(url) {
  // A profile of its own on disk: Chromium does not offer installing from an incognito window.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-install-"));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: chromePath, args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await browser.newCDPSession(page);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    return installabilityErrors.map((e) => [e.errorId, ...e.errorArguments.map((a) => `${a.name}=${a.value}`)].join(" "));
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
