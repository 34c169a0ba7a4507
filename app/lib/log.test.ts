import { describe, expect, it } from "vitest";
import { createLogger, type LogSink } from "./log";

function setup() {
  const lines: string[] = [];
  const sink = Object.fromEntries((["debug", "info", "warn", "error"] as const).map((l) => [l, (...args: unknown[]) => lines.push(`${l}: ${args.map(String).join(" ")}`)])) as unknown as LogSink;
  let t = 0;
  const pending: { fn: () => void; at: number }[] = [];
  const log = createLogger({ sink, now: () => t, later: (fn, ms) => void pending.push({ fn, at: t + ms }) });
  const advance = (ms: number) => {
    t += ms;
    for (const p of pending.splice(0)) if (p.at <= t) p.fn();
      else pending.push(p);
  };
  return { lines, log, advance };
}

describe("the browser logger", () => {
  it("prints a repeated message five times within a second, then one summary once it is quiet", () => {
    const { lines, log, advance } = setup();
    for (let i = 0; i < 12; i++) {
      log.error("Fehler beim Laden der Farben", 503);
      advance(100);
    }
    expect(lines).toHaveLength(5);
    advance(1000);
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe("error: Fehler beim Laden der Farben (repeated 7 more times)");
    // Quiet for a second: the same message prints again.
    log.error("Fehler beim Laden der Farben", 503);
    expect(lines).toHaveLength(7);
  });

  it("repeats slower than the window are all printed; different messages are not held back", () => {
    const { lines, log, advance } = setup();
    for (let i = 0; i < 8; i++) {
      log.warn("langsam");
      advance(1001);
    }
    expect(lines).toHaveLength(8);
    const b = setup();
    for (let i = 0; i < 8; i++) b.log.info(`Nachricht ${i}`);
    expect(b.lines).toHaveLength(8);
  });

  it("a different message says what was held back first", () => {
    const { lines, log } = setup();
    for (let i = 0; i < 7; i++) log.warn("gleich");
    log.warn("anders");
    expect(lines.slice(-2)).toEqual(["warn: gleich (repeated 2 more times)", "warn: anders"]);
  });

  it("the same text with other details is another message", () => {
    const { lines, log } = setup();
    for (let i = 0; i < 7; i++) log.error("Speichern fehlgeschlagen", { status: i });
    expect(lines).toHaveLength(7);
  });
});
