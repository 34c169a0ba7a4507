// `npm test`: build, then the unit/store/API suites (Vitest), then the browser suites (Playwright).
// Browser tests need Chromium: without one they are skipped with a note, unless REQUIRE_BROWSER=1.
import { spawnSync } from "node:child_process";
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
// Types first: strict TypeScript over app, server and tests (route types come from typegen).
if (run(bin("@react-router/dev", "bin.js"), ["typegen"]) !== 0 || run(bin("typescript", "bin/tsc"), ["--noEmit"]) !== 0) failures.push("typecheck");
// The JSON report names the failed tests again at the very end, where a CI log's tail shows them.
const vitestReport = path.join(os.tmpdir(), `praxisnetz-vitest-${process.pid}.json`);
if (run(bin("vitest", "vitest.mjs"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`]) !== 0) failures.push("vitest");

const chromium = findChromium();
if (!chromium) {
  const note = "Browser tests skipped: no Chromium found. Install one (`apt-get install chromium`) or set CHROMIUM_PATH.";
  if (process.env.REQUIRE_BROWSER === "1") {
    console.error(`${note} REQUIRE_BROWSER=1, so this is a failure.`);
    failures.push("browser");
  } else console.log(note);
} else if (run(bin("@playwright/test", "cli.js"), ["test"]) !== 0) failures.push("playwright");

if (failures.length) {
  for (const line of failedVitestTests(vitestReport)) console.error(`vitest failed: ${line}`);
  console.error(`npm test failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log("npm test: all suites passed");

/** "file › test: first line of the error" for each failed test in Vitest's JSON report (none when it is missing). */
function failedVitestTests(file) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return [];
  }
  const lines = [];
  for (const suite of report.testResults ?? []) {
    const name = path.relative(root, suite.name ?? "");
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed) lines.push(`${name} › ${t.fullName}: ${String(t.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300)}`);
    if (!failed.length && suite.status === "failed") lines.push(`${name}: ${String(suite.message ?? "").split("\n")[0].slice(0, 300)}`);
  }
  return lines;
}
