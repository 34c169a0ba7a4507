import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./tests/support/chromium.mjs";
import { E2E_WORKERS, serverPort } from "./tests/e2e/fixtures";

export default defineConfig({
  testDir: "tests/e2e",
  // Files are shared out between the workers; the tests of one file run in order in one worker.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  // `npm test` asks for a JSON report too (PW_JSON_REPORT), to name the failed tests again at the
  // very end of its output, where a CI log's tail shows them.
  reporter: process.env.PW_JSON_REPORT ? [["list"], ["json", { outputFile: process.env.PW_JSON_REPORT }]] : [["list"]],
  timeout: 30_000,
  // Two workers, two servers, Vitest and the type check share two cores in CI: a check that takes
  // well under a second alone may take a few seconds then. Waiting longer changes no verdict.
  expect: { timeout: 10_000 },
  use: {
    // baseURL is each worker's own server: see tests/e2e/fixtures.ts.
    headless: true,
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  // One server per worker, each with a fresh store: the e2e server seeds the demo content into its
  // own data dir, so files running side by side do not see each other's changes.
  webServer: Array.from({ length: E2E_WORKERS }, (_, slot) => ({
    command: `node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${serverPort(slot)}/healthz`,
    reuseExistingServer: false,
    timeout: 90_000,
    // The address search's geocoder is unreachable on purpose: its answers come from the directory.
    env: { PORT: String(serverPort(slot)), HOST: "127.0.0.1", LOG_LEVEL: "warn", GEOCODER_URL: "http://127.0.0.1:9/search" },
  })),
});
