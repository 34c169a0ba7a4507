// Runs the official Squidex SDK's own test suite (github.com/Squidex/sdk-node, `npm test` there:
// jest over tests/*.test.ts) against this app's embedded Squidex API, and counts what passed,
// what failed and what is not applicable: a test this single-app service answers with 501 (it
// creates no apps, rules, users, ...), the reason printed. The upload from a URL downloads a file
// from GitHub: on a machine without the internet it is counted apart ("needs the internet").
//
//   node scripts/sdk-suite.mjs [path to an sdk-node checkout]   (or SDK_NODE_DIR=...)
//
// Not part of `npm test`: the checkout's dev dependencies come from the npm registry (installed
// there, with `npm install`, when its node_modules is missing). Our server runs from the
// production build (built when missing or older than the sources) on a throw-away data dir and a
// free loopback port. Exit code 1 when a test fails for another reason than a 501.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildIfNeeded } from "./build-if-needed.mjs";

const root = path.resolve(import.meta.dirname, "..");
const sdkDir = path.resolve(process.argv[2] ?? process.env.SDK_NODE_DIR ?? "");
const sdkPackage = path.join(sdkDir, "package.json");
if (!process.argv[2] && !process.env.SDK_NODE_DIR) fail("Name the sdk-node checkout: node scripts/sdk-suite.mjs <dir> (or SDK_NODE_DIR=<dir>).");
if (!fs.existsSync(sdkPackage) || JSON.parse(fs.readFileSync(sdkPackage, "utf8")).name !== "@squidex/squidex")
  fail(`${sdkDir} is no checkout of github.com/Squidex/sdk-node (its package.json names @squidex/squidex).`);
const jest = path.join(sdkDir, "node_modules/jest/bin/jest.js");
if (!fs.existsSync(jest)) {
  console.log(`Installing the SDK's dev dependencies in ${sdkDir} …`);
  const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: sdkDir, stdio: "inherit" });
  if (npm.status !== 0 || !fs.existsSync(jest)) fail("npm install in the SDK checkout failed.");
}

buildIfNeeded();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-sdk-suite-"));
const server = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir },
  stdio: ["ignore", "pipe", "pipe"],
});
let log = "";
server.stderr.on("data", (d) => (log += d));
const port = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`The server did not start:\n${log}`)), 60_000);
  server.stdout.on("data", (d) => {
    log += d;
    const m = log.match(/"port":(\d+)[^\n]*"msg":"Praxisnetz listening"/);
    if (m) {
      clearTimeout(timer);
      resolve(Number(m[1]));
    }
  });
  server.once("exit", (code) => reject(new Error(`The server exited with ${code}:\n${log}`)));
}).catch(async (e) => {
  await stop();
  fail(e.message);
});

let exitCode = 0;
try {
  const client = JSON.parse(fs.readFileSync(path.join(dataDir, "squidex-client.json"), "utf8"));
  const report = path.join(dataDir, "jest-report.json");
  // The SDK suite's own settings (tests/_utils.ts, globalSetup.ts).
  const env = {
    ...process.env,
    CONFIG__APP__NAME: "praxisnetz",
    CONFIG__CLIENT__ID: client.clientId,
    CONFIG__CLIENT__SECRET: client.clientSecret,
    CONFIG__SERVER__URL: `http://127.0.0.1:${port}/api/squidex`,
    CONFIG__WAIT: "30",
  };
  const run = spawnSync(process.execPath, [jest, "tests", "--ci", "--runInBand", "--json", `--outputFile=${report}`], { cwd: sdkDir, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (!fs.existsSync(report)) throw new Error(`jest wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  const results = JSON.parse(fs.readFileSync(report, "utf8"));
  const counts = { passed: 0, failed: 0, notApplicable: 0, offline: 0 };
  for (const file of results.testResults) {
    const name = path.relative(sdkDir, file.name);
    if (!file.assertionResults.length && file.status === "failed") {
      counts.failed++;
      console.log(`✗ ${name}: ${firstLine(file.message)}`);
    }
    for (const test of file.assertionResults) {
      const title = `${name} › ${test.fullName}`;
      if (test.status === "passed") {
        counts.passed++;
        console.log(`✓ ${title}`);
        continue;
      }
      const message = test.failureMessages.join("\n");
      const reason = message.match(/"message": ("(?:[^"\\]|\\.)*")/)?.[1];
      if (/status code:? 400/i.test(message) && /could not be found/.test(reason ?? "")) {
        // The upload from a URL fetches a file from GitHub: a machine without the internet cannot.
        counts.offline++;
        console.log(`· ${title} (needs the internet: ${JSON.parse(reason)})`);
        continue;
      }
      if (/status code 501/i.test(message)) {
        counts.notApplicable++;
        console.log(`– ${title} (not applicable: ${reason ? JSON.parse(reason) : "501"})`);
      } else {
        counts.failed++;
        console.log(`✗ ${title}\n    ${firstLine(message)}`);
      }
    }
  }
  const total = counts.passed + counts.failed + counts.notApplicable + counts.offline;
  console.log(`\nSDK suite (${total} tests): ${counts.passed} passed, ${counts.failed} failed, ${counts.notApplicable} not applicable (501)${counts.offline ? `, ${counts.offline} need the internet` : ""}.`);
  if (counts.failed) exitCode = 1;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  exitCode = 1;
}
await stop();
process.exit(exitCode);

function firstLine(text) {
  return String(text ?? "").split("\n").find((l) => l.trim())?.trim() ?? "";
}

/** Stops our server and removes its data dir. */
async function stop() {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
