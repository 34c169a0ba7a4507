import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/api/**/*.test.ts", "tests/fuzz/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // At least two files at once: most of these suites wait on sockets, SQLite and PostgreSQL, not
    // the CPU, so even two cores (Vitest would take one) run two side by side. Each file has its
    // own data dir, port and database (see tests/support), so files never share state.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
