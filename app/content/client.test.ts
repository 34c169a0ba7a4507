import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContentClient } from "./client";
import { openDemoStore } from "./demo-store.test-support";
import type { ContentStore } from "./store";

/** The content client over a real store with the demo content: what each audience gets. */
let store: ContentStore;
let client: ContentClient;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ store, client, close } = await openDemoStore("praxisnetz-client-"));
});
afterAll(() => close());

describe("the embedded content client", () => {
  it("gives visitors the practitioners shown on this site without private fields; system code every published one", async () => {
    const visitor = await client.query("gm-content-practitioners", { take: 200 }, { audience: "visitor", language: "de" });
    const system = await client.query("gm-content-practitioners", { take: 200 }, { audience: "system", language: "de" });
    expect(visitor.total).toBeGreaterThan(10);
    expect(system.total).toBeGreaterThan(visitor.total);
    for (const p of visitor.items) {
      expect(p.data.display).toBe(true);
      expect(p.data.websites).toContain("PRAXISNETZ");
      expect(p.data).not.toHaveProperty("email");
      expect(p.slug).toMatch(/^[a-z0-9-]+$/);
    }
    expect(system.items.some((p) => "email" in p.data)).toBe(true);
  });

  it("keeps drafts from everyone but an editor who asks for them", async () => {
    const draft = await client.create("gm-content-practitioners", { name: { iv: "Dora Draft" }, city: { iv: "Jena" }, display: { iv: true }, websites: { iv: ["PRAXISNETZ"] } });
    for (const audience of ["visitor", "system", "editor"] as const) expect(await client.get("gm-content-practitioners", draft.id, { audience, language: "de" }), audience).toBeUndefined();
    expect((await client.get("gm-content-practitioners", draft.id, { audience: "editor", language: "de", unpublished: true }))?.data.name).toBe("Dora Draft");
    // A visitor asking for drafts still gets none.
    expect(await client.get("gm-content-practitioners", draft.id, { audience: "visitor", language: "de", unpublished: true })).toBeUndefined();
    await client.changeStatus("gm-content-practitioners", draft.id, "Published");
    expect((await client.get("gm-content-practitioners", draft.id, { audience: "visitor", language: "de" }))?.slug).toBe("dora-draft");
  });

  it("answers facets and neighbours for what the audience may see", async () => {
    const languages = await client.distinct("gm-content-practitioners", "languages", { audience: "visitor", language: "de" });
    expect(languages).toContain("de");
    await expect(client.distinct("gm-content-practitioners", "email", { audience: "visitor", language: "de" })).rejects.toMatchObject({ statusCode: 400 });
    const first = (await client.query("gm-content-practitioners", { sort: [{ path: "data.name.iv" }], take: 1 }, { audience: "visitor", language: "de" })).items[0]!;
    const around = await client.adjacent("gm-content-practitioners", first.id, "name", { audience: "visitor", language: "de" });
    expect(around?.next.id).not.toBe(first.id);
    const last = (await client.query("gm-content-practitioners", { sort: [{ path: "data.name.iv", order: "descending" }], take: 1 }, { audience: "visitor", language: "de" })).items[0]!;
    expect(around?.previous.id).toBe(last.id);
  });
});
