import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "~/auth/audit.server";
import { UserStore, type User } from "~/auth/users.server";
import type { Block } from "~/blocks/types";
import type { ContentStore } from "~/content/store";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { createTemplate, deleteTemplate, getTemplate, listTemplates, TEMPLATE_MAX_BLOCKS, TEMPLATE_MAX_BYTES, TemplateError, type TemplateProblem } from "./templates.server";

/**
 * Templates on a real database with the real audit log: a SQLite file always, PostgreSQL when
 * TEST_DATABASE_URL is set (its own schema, dropped afterwards).
 */

const T0 = new Date("2031-05-04T10:00:00.000Z");
const at = (s: number) => new Date(T0.getTime() + s * 1000);

const text = (html: string, id?: string): Block => ({ schemaId: "block-richtext", ...(id ? { id } : {}), html });
const section = (children: Block[], id?: string): Block => ({ schemaId: "block-section", ...(id ? { id } : {}), heading: "Leistungen", layout: "two-columns", background: "", blocks: children });

async function refused(promise: Promise<unknown>): Promise<TemplateProblem> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected a TemplateError").toBeInstanceOf(TemplateError);
  return (error as TemplateError).problem;
}

function templatesSuite(name: string, open: (() => StoreBackend) | undefined) {
  (open ? describe : describe.skip)(name, () => {
    let backend: StoreBackend;
    let store: ContentStore;
    let audit: AuditLog;
    let users: UserStore;
    let maria: User;
    let jonas: User;
    let admin: User;

    beforeAll(async () => {
      backend = open!();
      store = await backend.openStore();
      await store.migrate();
      users = new UserStore(store.db);
      audit = new AuditLog(store.db);
      maria = await users.create({ email: "maria@example.org", name: "Maria Muster" });
      jonas = await users.create({ email: "jonas@example.org", name: "Jonas Beispiel" });
      admin = await users.create({ email: "admin@example.org", name: "Ada Admin", superuser: true });
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    it("saves a selection under its trimmed name, without ids, and gives it back with its children", async () => {
      const blocks = [section([text("<p>Eins</p>", "child-1"), text("<p>Zwei</p>", "child-2")], "sec-1"), text("<p>Danach</p>", "after")];
      const saved = await createTemplate(store.db, audit, maria, { name: "  Leistungen zweispaltig ", blocks }, T0);
      expect(saved).toMatchObject({ name: "Leistungen zweispaltig", blockCount: 2, createdBy: "Maria Muster", createdAt: T0.toISOString(), canDelete: true });
      const got = await getTemplate(store.db, saved.id, jonas);
      expect(got?.canDelete).toBe(false);
      expect(got?.blocks).toEqual([
        { schemaId: "block-section", heading: "Leistungen", layout: "two-columns", background: "", blocks: [{ schemaId: "block-richtext", html: "<p>Eins</p>" }, { schemaId: "block-richtext", html: "<p>Zwei</p>" }] },
        { schemaId: "block-richtext", html: "<p>Danach</p>" },
      ]);
      expect(await getTemplate(store.db, "no-such-template", maria)).toBeUndefined();
      const entries = await audit.list({});
      expect(entries.find((e) => e.itemId === saved.id)).toMatchObject({ action: "create-editor-template", userId: maria.id, userEmail: "maria@example.org", detail: "Leistungen zweispaltig" });
    });

    it("lists newest first, with who saved each by name and whether the asker may delete it", async () => {
      const older = await createTemplate(store.db, audit, jonas, { name: "Älter", blocks: [text("<p>a</p>")] }, at(60));
      const newer = await createTemplate(store.db, audit, maria, { name: "Neuer", blocks: [text("<p>b</p>"), text("<p>c</p>")] }, at(120));
      const list = await listTemplates(store.db, jonas);
      const ours = list.filter((s) => s.id === older.id || s.id === newer.id);
      expect(ours).toEqual([
        { id: newer.id, name: "Neuer", blockCount: 2, createdBy: "Maria Muster", createdAt: at(120).toISOString(), canDelete: false },
        { id: older.id, name: "Älter", blockCount: 1, createdBy: "Jonas Beispiel", createdAt: at(60).toISOString(), canDelete: true },
      ]);
      expect(list.indexOf(ours[0]!)).toBeLessThan(list.indexOf(ours[1]!));
      expect((await listTemplates(store.db, admin)).every((s) => s.canDelete)).toBe(true);
      // The list carries no blocks: they can be large, and only an insert needs them.
      expect(list.every((s) => !("blocks" in s))).toBe(true);
    });

    it("names a template's author by e-mail without a name, and as nobody once the user is gone", async () => {
      const temp = await users.create({ email: "kurz@example.org", name: "Kurz Zeit" });
      await users.update(temp.id, { name: "" });
      const saved = await createTemplate(store.db, audit, temp, { name: "Von Kurz", blocks: [text("<p>k</p>")] }, at(180));
      expect(saved.createdBy).toBe("kurz@example.org");
      await users.remove(temp.id);
      expect((await getTemplate(store.db, saved.id, admin))?.createdBy).toBeNull();
    });

    it("refuses names that are empty, too long, not text or more than one line", async () => {
      const blocks = [text("<p>x</p>")];
      for (const name of ["", "   ", "x".repeat(81), "zwei\nZeilen", "tab\there", 42, null, undefined, ["Name"], { name: "Name" }])
        expect(await refused(createTemplate(store.db, audit, maria, { name, blocks })), JSON.stringify(name)).toBe("name");
      // 80 characters, counted as people count them (an emoji is one, not two UTF-16 units).
      const eighty = "😀".repeat(80);
      expect((await createTemplate(store.db, audit, maria, { name: eighty, blocks })).name).toBe(eighty);
    });

    it("refuses blocks that are not page-form blocks of kinds this site has, whole", async () => {
      const cases: Array<[unknown, TemplateProblem]> = [
        [undefined, "blocks"],
        ["block-richtext", "blocks"],
        [{ schemaId: "block-richtext" }, "blocks"],
        [[], "blocks"],
        [[null], "blocks"],
        [[[text("<p>x</p>")]], "blocks"],
        [[{ html: "<p>no kind</p>" }], "blocks"],
        [[{ schemaId: 7 }], "blocks"],
        [[{ schemaId: "block-nonexistent" }], "unknownKind"],
        [[{ schemaId: "__proto__" }], "unknownKind"],
        [[{ schemaId: "toString" }], "unknownKind"],
        [[text("<p>ok</p>"), { schemaId: "block-evil" }], "unknownKind"],
        [[section([text("<p>ok</p>"), { schemaId: "block-evil" }])], "unknownKind"],
        [[section([section([])])], "blocks"],
        [[{ ...section([]), blocks: "not a list" }], "blocks"],
        [[section([null as unknown as Block])], "blocks"],
      ];
      const before = (await listTemplates(store.db, maria)).length;
      for (const [blocks, problem] of cases) expect(await refused(createTemplate(store.db, audit, maria, { name: "Kaputt", blocks })), JSON.stringify(blocks)).toBe(problem);
      expect((await listTemplates(store.db, maria)).length).toBe(before);
    });

    it("holds at most 100 blocks, children counted, and at most 256 KB", async () => {
      const hundred = [section(Array.from({ length: 49 }, (_, i) => text(`<p>${i}</p>`))), ...Array.from({ length: 50 }, (_, i) => text(`<p>${i}</p>`))];
      expect((await createTemplate(store.db, audit, maria, { name: "Hundert", blocks: hundred })).blockCount).toBe(51);
      expect(await refused(createTemplate(store.db, audit, maria, { name: "Zu viele", blocks: [...hundred, text("<p>101</p>")] }))).toBe("tooMany");
      expect(TEMPLATE_MAX_BLOCKS).toBe(100);
      // A list of a million entries is refused at the 101st, not walked to the end.
      expect(await refused(createTemplate(store.db, audit, maria, { name: "Million", blocks: new Array(1_000_000).fill(text("")) }))).toBe("tooMany");

      const big = (bytes: number) => [text("x".repeat(bytes))];
      const overhead = JSON.stringify(big(0)).length;
      expect((await createTemplate(store.db, audit, maria, { name: "Genau", blocks: big(TEMPLATE_MAX_BYTES - overhead) })).blockCount).toBe(1);
      expect(await refused(createTemplate(store.db, audit, maria, { name: "Zu groß", blocks: big(TEMPLATE_MAX_BYTES - overhead + 1) }))).toBe("tooLarge");
      // Bytes, not characters: "ä" takes two.
      expect(await refused(createTemplate(store.db, audit, maria, { name: "Umlaute", blocks: [text("ä".repeat(TEMPLATE_MAX_BYTES / 2))] }))).toBe("tooLarge");
    });

    it("keeps a field named __proto__ as a field, and changes no object's prototype", async () => {
      const hostile = JSON.parse('[{"schemaId":"block-richtext","html":"<p>x</p>","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}]') as Block[];
      const saved = await createTemplate(store.db, audit, maria, { name: "Prototyp", blocks: hostile });
      const got = await getTemplate(store.db, saved.id, maria);
      expect(Object.getPrototypeOf(got!.blocks[0])).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.hasOwn(got!.blocks[0]!, "__proto__")).toBe(true);
    });

    it("lets editors delete their own templates and superusers any; audited", async () => {
      const mine = await createTemplate(store.db, audit, maria, { name: "Marias", blocks: [text("<p>m</p>")] });
      expect(await refused(deleteTemplate(store.db, audit, jonas, mine.id))).toBe("forbidden");
      expect(await getTemplate(store.db, mine.id, maria)).toBeDefined();
      expect(await deleteTemplate(store.db, audit, maria, mine.id)).toEqual({ name: "Marias" });
      expect(await getTemplate(store.db, mine.id, maria)).toBeUndefined();
      expect(await refused(deleteTemplate(store.db, audit, maria, mine.id))).toBe("notFound");

      const jonasOwn = await createTemplate(store.db, audit, jonas, { name: "Jonas'", blocks: [text("<p>j</p>")] });
      await deleteTemplate(store.db, audit, admin, jonasOwn.id);
      expect(await getTemplate(store.db, jonasOwn.id, admin)).toBeUndefined();

      const entries = await audit.list({});
      // Both deletes may share a millisecond: compared as a set, not in the log's order.
      const deletes = entries.filter((e) => e.action === "delete-editor-template").map((e) => [e.itemId, e.userEmail, e.detail]);
      expect(deletes).toHaveLength(2);
      expect(deletes).toEqual(expect.arrayContaining([
        [jonasOwn.id, "admin@example.org", "Jonas'"],
        [mine.id, "maria@example.org", "Marias"],
      ]));
    });
  });
}

templatesSuite("sqlite", () => sqliteStoreBackend("templates-test", 1024 * 1024));
const databaseUrl = process.env.TEST_DATABASE_URL;
templatesSuite(
  databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)",
  databaseUrl ? () => postgresStoreBackend(databaseUrl, "templates-test", "tp_", 1024 * 1024) : undefined,
);
