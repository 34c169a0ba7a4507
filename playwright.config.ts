import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./tests/support/chromium.mjs";

const port = Number(process.env.E2E_PORT ?? 3199);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    headless: true,
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // A fresh store for every run: the e2e server seeds the demo content into its own data dir.
    command: `node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The address search's geocoder is unreachable on purpose: its answers come from the directory.
    env: { PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", GEOCODER_URL: "http://127.0.0.1:9/search" },
  },
});
