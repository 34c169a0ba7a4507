// `npm test`: build, then the unit/store/API suites (Vitest), then the browser suites (Playwright).
// Browser tests need Chromium: without one they are skipped with a note, unless REQUIRE_BROWSER=1.
import { spawnSync } from "node:child_process";
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
if (run(bin("vitest", "vitest.mjs"), ["run"]) !== 0) failures.push("vitest");

const chromium = findChromium();
if (!chromium) {
  const note = "Browser tests skipped: no Chromium found. Install one (`apt-get install chromium`) or set CHROMIUM_PATH.";
  if (process.env.REQUIRE_BROWSER === "1") {
    console.error(`${note} REQUIRE_BROWSER=1, so this is a failure.`);
    failures.push("browser");
  } else console.log(note);
} else if (run(bin("@playwright/test", "cli.js"), ["test"]) !== 0) failures.push("playwright");

if (failures.length) {
  console.error(`npm test failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log("npm test: all suites passed");
