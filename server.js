// Starts Praxisnetz: the production build by default, or Vite's dev server with `--dev`.
import { once } from "node:events";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dev = process.argv.includes("--dev");
let createApp;
let vite;
if (dev) {
  const { createServer } = await import("vite");
  vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  ({ createApp } = await vite.ssrLoadModule("./server/app.ts"));
} else {
  const buildDir = path.resolve(import.meta.dirname, process.env.BUILD_DIR || "build");
  ({ createApp } = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href));
}

let started;
try {
  started = await createApp({ vite });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const { handler, env, services, logger } = started;
const bootMs = Math.round(performance.now());
const server = http.createServer(handler).listen(env.PORT, env.HOST);
await once(server, "listening");
const address = server.address();
const port = typeof address === "object" && address ? address.port : env.PORT;
logger.info({ port, bootMs, dataDir: env.DATA_DIR }, "Praxisnetz listening");
// A renderer that cannot be loaded is a broken deployment: stop rather than answer 500s.
started.rendererReady?.catch((error) => {
  logger.fatal({ err: error }, "the renderer could not be loaded");
  process.exit(1);
});
if (started.warm) void started.warm(port).catch((error) => logger.warn({ err: error }, "warming the page cache failed"));

// Graceful shutdown: stop accepting, let in-flight requests finish, then close the database.
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down");
  const timer = setTimeout(() => {
    logger.error("shutdown timed out; exiting");
    process.exit(1);
  }, env.SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  server.close();
  // Connections become idle as their last response finishes; close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  await once(server, "close");
  clearInterval(sweep);
  await vite?.close();
  await services.close();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
