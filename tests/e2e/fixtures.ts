import path from "node:path";
import { test as base } from "@playwright/test";
import { e2eDataDir } from "../support/e2e-data.mjs";

// Everything Playwright exports, with `test` replaced below: specs import from here, not from
// "@playwright/test", so that each worker talks to its own server.
export * from "@playwright/test";

/** The first e2e server's port; worker slot N uses E2E_PORT + N. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);

/**
 * How many browser workers run at once (E2E_WORKERS, default 2). Each has its own e2e server with
 * its own fresh store (playwright.config.ts starts one per worker), so the files running side by
 * side never see each other's changes to the shared settings, theme or directory.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

/** The port of the e2e server that worker slot `slot` uses. */
export const serverPort = (slot: number): number => E2E_PORT + slot;

/**
 * Playwright's `test` with baseURL set to this worker's own server. `parallelIndex` is the worker's
 * slot (0 … workers − 1); two workers running at once never share one.
 */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => use(`http://127.0.0.1:${serverPort(testInfo.parallelIndex)}`),
});

/** The store (SQLite file) of the server the running test talks to. */
export function e2eDb(): string {
  return path.join(e2eDataDir(serverPort(test.info().parallelIndex)), "praxisnetz.sqlite");
}
