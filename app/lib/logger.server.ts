import pino from "pino";

/** The one server logger: structured JSON lines, one per event, request ids attached by pino-http. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: { app: "praxisnetz" },
  redact: { paths: ["req.headers.cookie", "req.headers.authorization"], remove: true },
});
export type Logger = typeof logger;
