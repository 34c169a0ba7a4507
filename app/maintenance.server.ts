import type { Logger } from "./lib/logger.server";

/** One clean-up step: what it is called (for the log) and what it does (returns how many rows went). */
export interface Chore {
  name: string;
  run(now: Date): Promise<number>;
}

/**
 * Data minimisation on a timer (German privacy law keeps nothing longer than needed): booker details
 * some days after the appointment, never-confirmed newsletter addresses, delivered mail. Every app
 * node runs it; the deletes are idempotent, so several nodes at once only repeat work. The timer
 * does not keep the process alive.
 */
export function startMaintenance(chores: Chore[], logger: Logger, intervalMs = 60 * 60 * 1000): { stop(): void; runOnce(now?: Date): Promise<void> } {
  let running = false;
  const runOnce = async (now = new Date()) => {
    if (running) return;
    running = true;
    try {
      for (const chore of chores) {
        try {
          const removed = await chore.run(now);
          if (removed) logger.info({ chore: chore.name, removed }, "maintenance");
        } catch (error) {
          logger.warn({ err: error, chore: chore.name }, "maintenance step failed; tried again next time");
        }
      }
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void runOnce(), 10_000);
  const timer = setInterval(() => void runOnce(), intervalMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
    runOnce,
  };
}
