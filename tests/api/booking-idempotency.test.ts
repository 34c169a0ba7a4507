import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * An Idempotency-Key is not a secret (issue 20, finding 5): twenty people booking one slot with
 * the same key got one 201 and nineteen 200s carrying the winner's name, address, phone and note.
 * A repeat is the same request only when the same booker sends it; anyone else gets a 409 that
 * says nothing about the booking.
 */

let server: RunningServer;
let bearer: Record<string, string>;

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000", FORM_MIN_FILL_SECONDS: "0" } });
  bearer = { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" };
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function newSlot(daysAhead: number): Promise<string> {
  const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-appointments?publish=true`, {
    method: "POST",
    headers: bearer,
    body: JSON.stringify({ practitioner: { iv: ["prac-001"] }, start: { iv: new Date(Date.now() + daysAhead * 86_400_000).toISOString() }, durationMinutes: { iv: 30 }, booked: { iv: false } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const booker = (n: number) => ({ name: `Person ${n} Zwanzig`, email: `person${n}.zwanzig@example.org`, phone: `+49 30 77${String(n).padStart(4, "0")}`, note: `Notiz ${n} privat`, language: "de", privacy: true });

async function book(slot: string, body: unknown, key: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/api/appointments/${slot}/book`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": key }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

describe("a repeated Idempotency-Key", () => {
  it("20 bookers, one key, at once: one 201 and nineteen 409 without the winner's data", async () => {
    const slot = await newSlot(3);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(slot, booker(i), "shared-key-0001").then((a) => ({ ...a, n: i }))));
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const winner = booker(won[0]!.n);
    expect(JSON.parse(won[0]!.text).booking).toMatchObject({ name: winner.name, email: winner.email });
    for (const lost of answers.filter((a) => a.status === 409)) {
      for (const secret of [winner.name, winner.email, winner.phone, winner.note, JSON.parse(won[0]!.text).booking.id]) expect(lost.text, `answer to person ${lost.n}`).not.toContain(secret);
      expect(JSON.parse(lost.text).message).toBe("Dieser Termin wurde gerade von jemand anderem gebucht.");
    }
  });

  it("the same booker repeating the key gets 200 with its own booking; its key with other details is 409", async () => {
    const slot = await newSlot(4);
    const first = await book(slot, booker(1), "own-key-000001");
    expect(first.status).toBe(201);
    const again = await book(slot, booker(1), "own-key-000001");
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toEqual({ ...JSON.parse(first.text), created: false });
    const changed = await book(slot, { ...booker(1), note: "eine andere Notiz" }, "own-key-000001");
    expect(changed.status).toBe(409);
    expect(changed.text).not.toContain(booker(1).note);
  });
});
