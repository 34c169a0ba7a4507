import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, type DB } from "~/content/db";
import { BookingStore } from "./bookings";

const dirs: string[] = [];
async function freshDb(): Promise<DB> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bookings-"));
  dirs.push(dir);
  return (await openDatabase({ sqlitePath: path.join(dir, "db.sqlite") })).db;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const audit = { created: "2026-01-01T00:00:00.000Z", created_by: "x", last_modified: "2026-01-02T00:00:00.000Z", last_modified_by: "x" };

describe("bookings beside the slots", () => {
  it("stores, reads and removes a booker", async () => {
    const db = await freshDb();
    await migrate(db);
    const bookings = new BookingStore(db);
    await bookings.put("appt-1", { name: "Jana Wünsche", email: "jana@example.org", phone: null, note: "Bitte anrufen" });
    expect(await bookings.get("appt-1")).toMatchObject({ appointmentId: "appt-1", name: "Jana Wünsche", note: "Bitte anrufen" });
    await expect(bookings.put("appt-1", { name: "B", email: "b@example.org", phone: null, note: null })).rejects.toThrow();
    expect(await bookings.remove("appt-1")).toBe(true);
    expect(await bookings.get("appt-1")).toBeUndefined();
    await db.destroy();
  });

  it("moves booker fields of an older store out of the slots and the schema", async () => {
    const db = await freshDb();
    await migrate(db, "0001_content_model");
    const fields = ["practitioner", "start", "booked", "bookerName", "bookerEmail", "bookerPhone", "bookerNote"].map((name, i) => ({
      name,
      fieldId: i + 1,
      partitioning: "invariant",
      properties: { fieldType: "String" },
    }));
    await db
      .insertInto("schemas")
      .values({ id: "s1", name: "gm-appointments", type: "Default", is_published: 1, definition: JSON.stringify({ properties: {}, fields }), version: 0, ...audit })
      .execute();
    const booked = { practitioner: { iv: ["p1"] }, start: { iv: "2026-12-01T08:00:00Z" }, booked: { iv: true }, bookerName: { iv: "Ali Rahimi" }, bookerEmail: { iv: "ali@example.org" }, bookerNote: { iv: "Rollstuhl" } };
    const free = { practitioner: { iv: ["p1"] }, start: { iv: "2026-12-01T09:00:00Z" }, booked: { iv: false } };
    for (const [id, data] of [["a1", booked], ["a2", free]] as const) {
      const json = JSON.stringify(data);
      await db.insertInto("contents").values({ id, schema_name: "gm-appointments", status: "Published", new_status: null, version: 1, data: json, published_data: json, ...audit }).execute();
    }

    expect(await migrate(db)).toContain("0002_bookings_beside_slots");

    const rows = await db.selectFrom("contents").select(["id", "data", "published_data"]).orderBy("id").execute();
    for (const row of rows) {
      expect(row.data).not.toMatch(/booker|Rahimi|Rollstuhl/);
      expect(row.published_data).not.toMatch(/booker|Rahimi|Rollstuhl/);
    }
    expect(JSON.parse(rows[0]!.published_data!)).toEqual({ practitioner: { iv: ["p1"] }, start: { iv: "2026-12-01T08:00:00Z" }, booked: { iv: true } });
    const schema = await db.selectFrom("schemas").select("definition").executeTakeFirstOrThrow();
    expect((JSON.parse(schema.definition) as { fields: Array<{ name: string }> }).fields.map((f) => f.name)).toEqual(["practitioner", "start", "booked"]);
    const bookings = new BookingStore(db);
    expect(await bookings.get("a1")).toEqual({ appointmentId: "a1", name: "Ali Rahimi", email: "ali@example.org", phone: null, note: "Rollstuhl", created: audit.last_modified });
    expect(await bookings.get("a2")).toBeUndefined();
    await db.destroy();
  });
});
