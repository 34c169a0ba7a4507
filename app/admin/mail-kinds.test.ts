import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAIL_KINDS, mailKind } from "./mail-kinds";

/** Every kind of mail the code queues (`kind: "…"` next to a queued mail in app/), read from the sources. */
function queuedKinds(): Set<string> {
  const kinds = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.tsx?$/.test(name) && !/\.test\./.test(name)) {
        const text = readFileSync(file, "utf8");
        if (!/enqueue|outbox/i.test(text)) continue;
        for (const m of text.matchAll(/kind: "((?:booking|newsletter|registration|user)-[a-z-]+|test-mail)"/g)) kinds.add(m[1]!);
      }
    }
  };
  walk(path.resolve("app"));
  return kinds;
}

describe("mail kinds in the outbox", () => {
  it("names every kind the code queues, in German and in English", () => {
    const kinds = queuedKinds();
    expect(kinds.size).toBeGreaterThan(5);
    for (const kind of kinds) {
      expect(Object.hasOwn(MAIL_KINDS, kind), `no words for the mail kind "${kind}"`).toBe(true);
      expect(mailKind(kind, "de")).not.toBe(kind);
      expect(mailKind(kind, "en")).not.toBe(kind);
    }
  });

  it("shows an unknown kind as stored", () => {
    expect(mailKind("something-new", "de")).toBe("something-new");
  });
});
