/**
 * The browser's logger (§9; the server keeps pino). One call per level; a message repeated within
 * 1000 ms is printed five times, then held back, and one line says how often it came once it has
 * been quiet for 1000 ms. A failing poll or a broken image in a loop cannot flood the console.
 */

export type Level = "debug" | "info" | "warn" | "error";
export interface LogSink {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export const THROTTLE_MS = 1000;
export const THROTTLE_AFTER = 5;

export interface LoggerConfig {
  sink?: LogSink;
  throttleMs?: number;
  repeats?: number;
  now?: () => number;
  /** Schedules the summary of held-back repeats (tests run it by hand). */
  later?: (fn: () => void, ms: number) => void;
}

export type Logger = Record<Level, (message: string, ...details: unknown[]) => void>;

/** What makes two log lines "the same": level, message and details as text. */
function keyOf(level: Level, message: string, details: unknown[]): string {
  let rest = "";
  try {
    rest = details.length ? JSON.stringify(details, (_k, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v)) : "";
  } catch {
    rest = String(details.length);
  }
  return `${level}\u0000${message}\u0000${rest}`;
}

export function createLogger(config: LoggerConfig = {}): Logger {
  const sink = config.sink ?? console;
  const throttleMs = config.throttleMs ?? THROTTLE_MS;
  const repeats = config.repeats ?? THROTTLE_AFTER;
  const now = config.now ?? Date.now;
  const later = config.later ?? ((fn, ms) => void setTimeout(fn, ms));
  let last: { key: string; at: number; count: number; held: number; level: Level; message: string; flushScheduled: boolean } | null = null;

  const flush = () => {
    if (!last) return;
    last.flushScheduled = false;
    if (now() - last.at < throttleMs) {
      last.flushScheduled = true;
      later(flush, throttleMs - (now() - last.at));
      return;
    }
    if (last.held > 0) sink[last.level](`${last.message} (repeated ${last.held} more time${last.held === 1 ? "" : "s"})`);
    last = null;
  };

  const write = (level: Level) => (message: string, ...details: unknown[]) => {
    const key = keyOf(level, message, details);
    const t = now();
    if (last && last.key === key && t - last.at < throttleMs) {
      last.at = t;
      last.count++;
      if (last.count <= repeats) sink[level](message, ...details);
      else {
        last.held++;
        if (!last.flushScheduled) {
          last.flushScheduled = true;
          later(flush, throttleMs);
        }
      }
      return;
    }
    // Another message (or the same after a quiet second): what was held back is said first.
    if (last && last.held > 0) sink[last.level](`${last.message} (repeated ${last.held} more time${last.held === 1 ? "" : "s"})`);
    last = { key, at: t, count: 1, held: 0, level, message, flushScheduled: false };
    sink[level](message, ...details);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

/** The site's logger in the browser. */
export const log = createLogger();
