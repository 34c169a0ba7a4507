// `npm test`: build, then three independent suites at once: the type check, the unit/store/API
// suites (Vitest) and the browser suites (Playwright). They share nothing (each API test and the
// browser suite's server have their own data dir and port), and much of their time is waiting on
// sockets and the browser, so running them side by side takes about as long as the longest one.
// Vitest writes to the terminal as it goes; the others' lines carry a prefix ("[tsc]", "[e2e]").
// Browser tests need Chromium: without one they are skipped with a note, unless REQUIRE_BROWSER=1.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildIfNeeded } from "./build-if-needed.mjs";
import { findChromium } from "../tests/support/chromium.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
const run = (file, args) => spawnSync(process.execPath, [file, ...args], { cwd: root, stdio: "inherit", env: process.env }).status ?? 1;

buildIfNeeded();
const failures = [];
const started = Date.now();
// Route types come from typegen; it is quick and tsc needs it, so it runs first.
if (run(bin("@react-router/dev", "bin.js"), ["typegen"]) !== 0) failures.push("typecheck");

const suites = [];
// Types: strict TypeScript over app, server and tests.
if (!failures.length) suites.push(runPrefixed("tsc", bin("typescript", "bin/tsc"), ["--noEmit"]).then((code) => code === 0 || failures.push("typecheck")));
// The JSON report names the failed tests again at the very end, where a CI log's tail shows them.
const vitestReport = path.join(os.tmpdir(), `praxisnetz-vitest-${process.pid}.json`);
suites.push(runPrefixed(null, bin("vitest", "vitest.mjs"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`]).then((code) => code === 0 || failures.push("vitest")));

const playwrightReport = path.join(os.tmpdir(), `praxisnetz-playwright-${process.pid}.json`);
const chromium = findChromium();
if (!chromium) {
  const note = "Browser tests skipped: no Chromium found. Install one (`apt-get install chromium`) or set CHROMIUM_PATH.";
  if (process.env.REQUIRE_BROWSER === "1") {
    console.error(`${note} REQUIRE_BROWSER=1, so this is a failure.`);
    failures.push("browser");
  } else console.log(note);
} else {
  process.env.PW_JSON_REPORT = playwrightReport;
  suites.push(runPrefixed("e2e", bin("@playwright/test", "cli.js"), ["test"]).then((code) => code === 0 || failures.push("playwright")));
}

await Promise.all(suites);
console.log(`npm test: suites finished in ${Math.round((Date.now() - started) / 1000)} s`);

if (failures.length) {
  for (const line of failedVitestTests(vitestReport)) console.error(`vitest failed: ${line}`);
  for (const line of failedPlaywrightTests(playwrightReport)) console.error(`playwright failed: ${line}`);
  console.error(`npm test failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log("npm test: all suites passed");

/**
 * Runs a Node script; with a prefix its output is passed on line by line as "[prefix] line" (so
 * suites running at once stay readable), without one it goes straight to the terminal.
 * Resolves to the exit code.
 */
function runPrefixed(prefix, file, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: root, env: process.env, stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (prefix) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk) => {
          const lines = (rest + chunk).split("\n");
          rest = lines.pop() ?? "";
          for (const line of lines) out.write(`[${prefix}] ${line}\n`);
        });
        stream.on("end", () => rest && out.write(`[${prefix}] ${rest}\n`));
      }
    }
    child.on("error", (error) => {
      console.error(`${prefix ?? "vitest"}: ${error.message}`);
      resolve(1);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/** A test runner's JSON report, or null when it is missing or cut short (the runner crashed). */
function readReport(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** "file › test: first line of the error" for each failed test in Vitest's JSON report (none when it is missing). */
function failedVitestTests(file) {
  const report = readReport(file);
  if (!report) return [];
  const lines = [];
  for (const suite of report.testResults ?? []) {
    const name = path.relative(root, suite.name ?? "");
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed) lines.push(`${name} › ${t.fullName}: ${String(t.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300)}`);
    if (!failed.length && suite.status === "failed") lines.push(`${name}: ${String(suite.message ?? "").split("\n")[0].slice(0, 300)}`);
  }
  return lines;
}

/**
 * "file:line › test: first line of the error" for each browser test that did not pass in
 * Playwright's JSON report (none when it is missing), and a line for errors outside any test (a
 * web server that did not start, a file that did not load).
 */
function failedPlaywrightTests(file) {
  const report = readReport(file);
  if (!report) return [];
  const lines = [];
  const firstLine = (error) => String(error?.message ?? error?.value ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim()) ?? "";
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "expected" || test.status === "skipped") continue;
        const last = test.results?.at(-1);
        const where = `tests/e2e/${spec.file}:${spec.line}`;
        lines.push(`${where} › ${[...titles, spec.title].join(" › ")} (${test.status}): ${firstLine(last?.error ?? last?.errors?.[0]).slice(0, 300)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  // The top-level suites are the files; their titles are in `file` already.
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const error of report.errors ?? []) lines.push(`outside any test: ${firstLine(error).slice(0, 300)}`);
  return lines;
}
