import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "~/content/errors";
import { demoSchemas } from "~/content/seed/schemas";
import type { ContentStore } from "~/content/store";
import type { Schema } from "~/content/types";
import { validateSubmission } from "~/forms/engine";
import { sqliteStoreBackend, type StoreBackend } from "../../../tests/support/store-backends";
import { adminItemForm, dataFromValues, ItemInputError, itemForm, storeErrorsByField, valuesFromData } from "./item-form";
import {
  collectionHref,
  collectionQuery,
  listFilters,
  listQuery,
  MAX_PAGE,
  PAGE_SIZE,
  parseCollectionParams,
  parseListParams,
  pageHref,
  requestedPage,
  sortKeys,
} from "./list-query";
import { listColumns } from "./schema-route.server";
import { Outbox } from "~/mail/outbox";
import { approveRegistration, countRegistrations, listRegistrations, pendingRegistration, rejectRegistration } from "./registrations.server";

/**
 * The admin content screens' server helpers on a real SQLite store with the demo schemas: list
 * parameters (hostile ones refused with a 400, the rest run in the database), the item form made
 * from the schema, and approving a registration.
 */

const PRACTITIONERS = "gm-content-practitioners";
const params = (q: string) => new URLSearchParams(q);

function expect400(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).statusCode).toBe(400);
    return;
  }
  throw new Error("expected a 400");
}

describe("list parameters", () => {
  it("reads page, search and status", () => {
    expect(parseListParams(params("page=3&q=%20Berlin%20&status=Changed"))).toEqual({ page: 3, search: "Berlin", status: "Changed" });
    expect(parseListParams(params(""))).toEqual({ page: 1, search: "", status: "" });
  });

  it.each(["page=0", "page=-1", "page=1.5", "page=abc", "page=1e3", "page=99999999999", "page=999999999", "status=Archived", "status=%27%20or%201%3D1", "q=a%00b", `q=${"x".repeat(201)}`, `q=${Array.from({ length: 17 }, (_, i) => `w${i}`).join("+")}`])(
    "refuses %s with a 400",
    (query) => expect400(() => parseListParams(params(query))),
  );

  it("pages in the database, newest change first", () => {
    const query = listQuery({ page: 2, search: "Kern", status: "Draft" });
    expect(query).toMatchObject({ skip: PAGE_SIZE, take: PAGE_SIZE, fullText: "Kern", filter: { path: "status", op: "eq", value: "Draft" } });
    expect(query.sort?.[0]).toEqual({ path: "lastModified", order: "descending" });
    expect(pageHref({ page: 1, search: "a&b", status: "" }, 2)).toBe("?q=a%26b&page=2");
  });
});

describe("a collection list's parameters", () => {
  // The seed's schema as the store returns it (ids and stamps are not read here).
  const practitioners = demoSchemas.find((s) => s.name === PRACTITIONERS)! as unknown as Schema;
  const filters = listFilters(practitioners, "de");
  const sortable = sortKeys(practitioners, listColumns(practitioners), "de");
  const parse = (q: string, language: "de" | "en" = "de") => parseCollectionParams(params(q), language, sortable, filters);

  it("offers the practitioners' filters and sortable columns", () => {
    expect(filters.map((f) => [f.name, f.kind])).toEqual([
      ["country", "text"],
      ["city", "text"],
      ["display", "boolean"],
      ["finishedPractitioner", "boolean"],
    ]);
    expect(sortable.map((s) => s.key)).toEqual(["name", "country", "city"]);
  });

  it("reads a page number, or nothing for what is none (the list sends those to its first page)", () => {
    expect(requestedPage(null)).toBe(1);
    expect(requestedPage("7")).toBe(7);
    for (const raw of ["abc", "-1", "0", "1e308", "1.5", "0x10", " 2", "Infinity"]) expect(requestedPage(raw), raw).toBeUndefined();
    // Past any real list: read as the furthest page, which the list sends on to its last one.
    expect(requestedPage("99999999999999999999")).toBe(MAX_PAGE);
    expect(requestedPage("9".repeat(500))).toBe(MAX_PAGE);
  });

  it("reads order and filters, and keeps them in every link", () => {
    const p = parse("q=Kern&status=Draft&sort=-city&city=K%C3%B6ln&display=no&page=3");
    expect(p).toMatchObject({ page: 3, search: "Kern", status: "Draft", sort: "city", descending: true, filters: { city: "Köln", display: "no" } });
    expect(parseCollectionParams(new URLSearchParams(collectionHref(p, 5).slice(1)), "de", sortable, filters)).toEqual({ ...p, page: 5 });
    expect(collectionHref(p, 1, { key: "name", descending: false })).toBe("?q=Kern&status=Draft&sort=name&city=K%C3%B6ln&display=no");
    // The default order (newest change first) and page 1 stay out of the URL.
    expect(parse("")).toMatchObject({ sort: "modified", descending: true, filters: {} });
    expect(collectionHref(parse(""), 1)).toBe("?");
    expect(collectionHref(parse("sort=modified"), 2)).toBe("?sort=modified&page=2");
  });

  it.each(["sort=email", "sort=-data.name.iv", "sort=--name", "display=maybe", "finishedPractitioner=true", `city=${"x".repeat(101)}`, "city=a%00b", "status=Archived"])(
    "refuses %s with a 400 in the editor's language",
    (query) => {
      expect400(() => parse(query));
      expect(() => parse(query, "en")).toThrow(/filter|column|status/i);
    },
  );

  it("sorts by the column's store path, the id breaking ties", () => {
    const query = collectionQuery(parse("sort=city&page=2&finishedPractitioner=yes"), sortable, filters);
    expect(query.sort).toEqual([
      { path: "data.city.iv", order: "ascending" },
      { path: "id", order: "ascending" },
    ]);
    expect(query).toMatchObject({ skip: PAGE_SIZE, take: PAGE_SIZE, filter: { path: "data.finishedPractitioner.iv", op: "eq", value: true } });
  });
});

describe("on a store", () => {
  let backend: StoreBackend;
  let store: ContentStore;
  let schema: Schema;
  let outbox: Outbox;
  const editor = { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false };
  const ORIGIN = "https://praxis.example";

  beforeAll(async () => {
    backend = sqliteStoreBackend("admin-content", 4096);
    store = await backend.openStore();
    await store.migrate();
    outbox = new Outbox(store.db);
    for (const s of demoSchemas.filter((s) => s.name === PRACTITIONERS)) await store.upsertSchema(s);
    schema = (await store.getSchema(PRACTITIONERS))!;
    const base = { websites: { iv: ["PRAXISNETZ"] }, city: { iv: "Berlin" } };
    await store.create(PRACTITIONERS, { ...base, name: { iv: "Anna Approved" }, display: { iv: true } }, { id: "shown", publish: true });
    await store.create(PRACTITIONERS, { ...base, name: { iv: "Nina New" }, display: { iv: false }, finishedPractitioner: { iv: true }, email: { iv: "nina@example.org" }, speciality: { en: "Osteopathy" } }, { id: "new-one" });
    await store.create(PRACTITIONERS, { ...base, name: { iv: "Otto Old" } }, { id: "no-flag" });
    await store.create(PRACTITIONERS, { websites: { iv: ["PRAXISNETZ"] }, name: { iv: "Ina Incomplete" }, display: { iv: false } }, { id: "incomplete" }).catch(() => undefined);
  });

  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("runs every status filter and hostile search text without failing", async () => {
    for (const q of ["status=Draft", "status=Published", "status=Changed", "q=%27%3B%20drop%20table%20contents%3B--", "q=%25_%5C%22", "q=Nina&page=2"]) {
      const result = await store.query(PRACTITIONERS, listQuery(parseListParams(params(q))), { unpublished: true });
      expect(result.total).toBeGreaterThanOrEqual(0);
    }
    const drafts = await store.query(PRACTITIONERS, listQuery(parseListParams(params("status=Draft&q=nina"))), { unpublished: true });
    expect(drafts.items.map((i) => i.id)).toEqual(["new-one"]);
    await store.createDraft(PRACTITIONERS, "shown");
    const changed = await store.query(PRACTITIONERS, listQuery(parseListParams(params("status=Changed"))), { unpublished: true });
    expect(changed.items.map((i) => i.id)).toEqual(["shown"]);
    const published = await store.query(PRACTITIONERS, listQuery(parseListParams(params("status=Published"))), { unpublished: true });
    expect(published.items).toEqual([]);
    await store.discardDraft(PRACTITIONERS, "shown");
  });

  it("sorts and filters a collection list in the database", async () => {
    const filters = listFilters(schema, "de");
    const sortable = sortKeys(schema, listColumns(schema), "de");
    const cities = ["Zwickau", "Aachen", "Münster", "aalen"];
    for (const [i, city] of cities.entries())
      await store.create(PRACTITIONERS, { websites: { iv: ["PRAXISNETZ"] }, name: { iv: `Sortprobe ${i}` }, city: { iv: city }, display: { iv: true }, finishedPractitioner: { iv: i % 2 === 0 } }, { id: `sort-${i}`, publish: i < 2 });
    const run = async (q: string) => (await store.query(PRACTITIONERS, collectionQuery(parseCollectionParams(params(`q=Sortprobe&${q}`), "de", sortable, filters), sortable, filters), { unpublished: true })).items.map((i) => i.data.city?.iv);
    // Case and umlauts fold as editors read them: aachen, aalen, munster, zwickau.
    expect(await run("sort=city")).toEqual(["Aachen", "aalen", "Münster", "Zwickau"]);
    expect(await run("sort=-city")).toEqual(["Zwickau", "Münster", "aalen", "Aachen"]);
    expect(await run("sort=city&city=aa")).toEqual(["Aachen", "aalen"]);
    expect(await run("sort=city&finishedPractitioner=yes")).toEqual(["Münster", "Zwickau"]);
    expect(await run("sort=city&finishedPractitioner=no")).toEqual(["Aachen", "aalen"]);
    expect(await run("sort=city&status=Published")).toEqual(["Aachen", "Zwickau"]);
    expect(await run("sort=city&display=no")).toEqual([]);
    // A deep page (ids sorted and skipped first, then the page's documents read) is the same slice.
    const sort = [{ path: "data.city.iv" }, { path: "id" }];
    const all = await store.query(PRACTITIONERS, { sort, take: 20 }, { unpublished: true });
    for (const skip of [1, 2, 5, all.total - 1, all.total + 3]) {
      const page = await store.query(PRACTITIONERS, { sort, skip, take: 2 }, { unpublished: true });
      expect(page.items.map((i) => i.id), `skip ${skip}`).toEqual(all.items.slice(skip, skip + 2).map((i) => i.id));
      expect(page.items.map((i) => i.data), `skip ${skip}`).toEqual(all.items.slice(skip, skip + 2).map((i) => i.data));
      expect(page.total).toBe(all.total);
    }
    for (let i = 0; i < cities.length; i++) await store.delete(PRACTITIONERS, `sort-${i}`);
  });

  it("lists registrations: practitioners with display off or unset, with their real state", async () => {
    const { total, rows } = await listRegistrations(store, 1);
    expect(total).toBe(2);
    expect(await countRegistrations(store)).toBe(2);
    expect(rows.map((r) => r.id).sort()).toEqual(["new-one", "no-flag"]);
    expect(rows.find((r) => r.id === "new-one")).toMatchObject({ name: "Nina New", city: "Berlin", finished: true, status: "Draft", visibility: "hidden-draft", email: "nina@example.org" });
    expect(rows.find((r) => r.id === "no-flag")).toMatchObject({ finished: false, visibility: "hidden-draft" });
    expect(await pendingRegistration(store, "shown")).toBeUndefined();
  });

  it("approves: display on and published with a mail in the practitioner's language, or nothing when the version is stale", async () => {
    const before = (await store.get(PRACTITIONERS, "new-one", { unpublished: true }))!;
    await expect(approveRegistration(store, outbox, "new-one", { by: editor, origin: ORIGIN, expectedVersion: before.version + 1 })).rejects.toMatchObject({ statusCode: 412 });
    expect((await store.get(PRACTITIONERS, "new-one", { unpublished: true }))!.data.display).toEqual({ iv: false });
    expect(await outbox.list({ to: "nina@example.org" })).toEqual([]);
    const approved = await approveRegistration(store, outbox, "new-one", { by: editor, origin: ORIGIN, expectedVersion: before.version });
    expect(approved).toMatchObject({ mailed: true, language: "en" });
    expect(approved.item.status).toBe("Published");
    const live = (await store.get(PRACTITIONERS, "new-one"))!;
    expect(live.data.display).toEqual({ iv: true });
    expect(live.lastModifiedBy).toBe("subject:t");
    const [mail] = await outbox.list({ to: "nina@example.org" });
    expect(mail).toMatchObject({ kind: "registration-approved", subject: "Your Praxisnetz entry is approved" });
    expect(mail!.text).toContain("Hello Nina New,");
    expect(mail!.text).toContain(`${ORIGIN}/en/practitioners/`);
    expect((await listRegistrations(store, 1)).rows.map((r) => r.id)).toEqual(["no-flag"]);
    await expect(approveRegistration(store, outbox, "new-one", { by: editor, origin: ORIGIN })).rejects.toMatchObject({ statusCode: 409 });
    await expect(approveRegistration(store, outbox, "missing", { by: editor, origin: ORIGIN })).rejects.toMatchObject({ statusCode: 404 });
    expect(await outbox.list({ kind: "registration-approved" })).toHaveLength(1);
  });

  it("rejects with a reason: archived, out of the list, the reason mailed (German when nothing tells another language) and audited", async () => {
    await store.patch(PRACTITIONERS, "no-flag", { email: { iv: "otto@example.org" } });
    const before = (await store.get(PRACTITIONERS, "no-flag", { unpublished: true }))!;
    for (const reason of ["", "   ", "x".repeat(2001)]) await expect(rejectRegistration(store, outbox, "no-flag", reason, { by: editor, origin: ORIGIN })).rejects.toMatchObject({ statusCode: 400 });
    expect((await store.get(PRACTITIONERS, "no-flag", { unpublished: true }))!.version).toBe(before.version);
    const rejected = await rejectRegistration(store, outbox, "no-flag", "  Keine Praxis im Verzeichnisgebiet.  ", { by: editor, origin: ORIGIN, expectedVersion: before.version });
    expect(rejected).toMatchObject({ mailed: true, language: "de" });
    expect(rejected.item.status).toBe("Archived");
    const [mail] = await outbox.list({ to: "otto@example.org" });
    expect(mail).toMatchObject({ kind: "registration-rejected", subject: "Ihre Registrierung im Praxisnetz" });
    expect(mail!.text).toContain("Guten Tag Otto Old,");
    expect(mail!.text).toContain("Keine Praxis im Verzeichnisgebiet.");
    const audit = await store.db.selectFrom("audit_log").selectAll().where("item_id", "=", "no-flag").orderBy("at", "desc").executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: "reject-registration", user_email: "editor@example.org", detail: "Keine Praxis im Verzeichnisgebiet." });
    expect((await listRegistrations(store, 1)).total).toBe(0);
    expect(await countRegistrations(store)).toBe(0);
    await expect(rejectRegistration(store, outbox, "no-flag", "again", { by: editor, origin: ORIGIN })).rejects.toMatchObject({ statusCode: 409 });
    await expect(rejectRegistration(store, outbox, "new-one", "approved already", { by: editor, origin: ORIGIN })).rejects.toMatchObject({ statusCode: 409 });
  });

  it("makes the item form from the schema: one input per language, places, languages and countries as controls", async () => {
    const { definition, readOnly, inputs } = adminItemForm(schema);
    const names = definition.fields.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["name", "city", "display", "speciality__de", "speciality__en", "description__de", "description__en", "coords", "coords2"]));
    expect(readOnly).toEqual([]);
    expect(inputs.get("coords")).toMatchObject({ partition: "iv", kind: "json" });
    expect(definition.fields.find((f) => f.name === "coords")?.control).toEqual({ kind: "geo" });
    expect(definition.fields.find((f) => f.name === "description__en")?.type).toBe("textarea");
    expect(adminItemForm(schema)).toBe(adminItemForm(schema));
    expect(adminItemForm(schema, "en")).not.toBe(adminItemForm(schema, "de"));
    // A field disabled through Squidex's API is shown and kept, never an input.
    const disabled: Schema = { ...schema, fields: schema.fields.map((f) => (f.name === "city" ? { ...f, isDisabled: true } : f)) };
    expect(adminItemForm(disabled).readOnly).toEqual(["city"]);
    expect(adminItemForm(disabled).definition.fields.map((f) => f.name)).not.toContain("city");
    // Languages and countries by name in the admin's language; the stored values stay ISO codes.
    const languages = adminItemForm(schema, "de").definition.fields.find((f) => f.name === "languages")!;
    expect(languages.control?.kind).toBe("choices");
    expect(languages.control?.props?.options).toEqual(expect.arrayContaining([{ value: "tr", label: "Türkisch" }, { value: "de", label: "Deutsch" }]));
    const country = adminItemForm(schema, "en").definition.fields.find((f) => f.name === "country")!;
    expect(country.type).toBe("select");
    expect(country.options).toEqual(expect.arrayContaining([{ value: "DE", label: "Germany" }, { value: "AT", label: "Austria" }]));
    expect(adminItemForm(schema, "de").definition.fields.find((f) => f.name === "country")!.options).toEqual(expect.arrayContaining([{ value: "DE", label: "Deutschland" }]));
    // Each country once, by its current code (DD, SU and YU name today's countries too).
    const labels = country.options!.map((o) => o.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(country.options!.map((o) => o.value)).not.toContain("DD");
    const refused = await validateSubmission(definition, { name: "", city: "Köln", zip: "12" }, "en");
    expect(Object.keys(refused.errors).sort()).toEqual(["name", "zip"]);
  });

  it("turns form values into data, keeping fields outside the form", async () => {
    const stored = { name: { iv: "Old" }, coords: { iv: { latitude: 52.5, longitude: 13.4 } }, speciality: { de: "Osteopathie", en: "Osteopathy" }, languages: { iv: ["de"] }, websites: { iv: ["PRAXISNETZ"] } };
    expect(valuesFromData(schema, stored)).toMatchObject({ name: "Old", speciality__de: "Osteopathie", speciality__en: "Osteopathy", languages: "de", coords: JSON.stringify({ latitude: 52.5, longitude: 13.4 }, null, 2) });
    const data = dataFromValues(schema, { name: "New", city: "Bonn", speciality__de: "Physio", speciality__en: "", languages: "de, en", display: true, coords: '{"latitude": 53.55, "longitude": 9.99}' }, stored);
    expect(data).toMatchObject({ name: { iv: "New" }, city: { iv: "Bonn" }, coords: { iv: { latitude: 53.55, longitude: 9.99 } }, speciality: { de: "Physio" }, languages: { iv: ["de", "en"] }, display: { iv: true } });
    expect(data.speciality).not.toHaveProperty("en");
    expect(data).not.toHaveProperty("coords2");
    const created = await store.create(PRACTITIONERS, data);
    expect(created.data.name).toEqual({ iv: "New" });
    // An emptied place is removed; a place out of range or half a place is refused at its input.
    expect(dataFromValues(schema, { name: "N", coords: "" }, stored)).not.toHaveProperty("coords");
    for (const bad of ['{"latitude": 91, "longitude": 9}', '{"longitude": 9}', "[1, 2]", '"Berlin"']) {
      try {
        dataFromValues(schema, { name: "N", coords: bad }, stored, undefined, "de");
        expect.unreachable(bad);
      } catch (error) {
        expect((error as ItemInputError).errors).toEqual({ coords: [expect.stringContaining("Bitte einen Ort auf der Karte wählen")] });
      }
    }
  });

  it("places the store's messages beside the inputs", () => {
    const { errors, rest } = storeErrorsByField(schema, ["name.iv: Field is required.", "speciality.en: Too long.", "coords.iv: Latitude must be between -90 and 90.", "nonsense"]);
    expect(errors).toEqual({ name: ["Field is required."], speciality__en: ["Too long."], coords: ["Latitude must be between -90 and 90."] });
    expect(rest).toEqual(["nonsense"]);
  });
});

describe("lists, components and references as JSON", () => {
  let backend: StoreBackend;
  let store: ContentStore;
  const NAVIGATION = "core-backend-navigation";

  beforeAll(async () => {
    backend = sqliteStoreBackend("admin-content-json", 4096);
    store = await backend.openStore();
    await store.migrate();
    for (const s of demoSchemas) await store.upsertSchema(s);
  });

  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("edits a localised list of entries as JSON per language, checked by the store", async () => {
    const schema = (await store.getSchema(NAVIGATION))!;
    const form = adminItemForm(schema, "de");
    const children = form.definition.fields.find((f) => f.name === "children__de")!;
    // Rows of the schema's nested fields, not JSON (the JSON is what the rows post).
    expect(children.control).toMatchObject({ kind: "list", props: { fields: expect.arrayContaining([expect.objectContaining({ name: "label", fieldType: "String" })]) } });
    const stored = { children: { de: [{ label: "Alt" }] } } as const;
    expect(valuesFromData(schema, stored, form).children__de).toBe(JSON.stringify([{ label: "Alt" }], null, 2));
    const data = dataFromValues(schema, { children__de: '[{"label": "Neu", "slug": "neu"}]', children__en: "" }, stored, form, "de");
    expect(data.children).toEqual({ de: [{ label: "Neu", slug: "neu" }] });
    // JSON that does not parse is refused at its input, in the editor's language.
    expect(() => dataFromValues(schema, { children__de: "[{label: 1}" }, stored, form, "en")).toThrow(ItemInputError);
    try {
      dataFromValues(schema, { children__de: "[{label: 1}" }, stored, form, "en");
    } catch (error) {
      expect((error as ItemInputError).errors.children__de?.[0]).toMatch(/^Not valid JSON: /);
    }
    // The store's message about one entry lands beside that language's input, with the entry's path.
    const { errors } = storeErrorsByField(schema, ["children.de[2].label: Field is required."], form);
    expect(errors).toEqual({ children__de: ["[2].Beschriftung: Field is required."] });
  });

  it("offers a page's menu place in words in both languages, storing the schema's values", async () => {
    const schema = (await store.getSchema("core-pages"))!;
    for (const [language, words] of [
      ["de", ["Nicht im Menü", "Hauptmenü (oben)", "Menü in der Fußzeile"]],
      ["en", ["Not in a menu", "Main menu (top)", "Footer menu"]],
    ] as const) {
      const navigation = adminItemForm(schema, language).definition.fields.find((f) => f.name === "navigation")!;
      expect(navigation.options).toEqual([
        { value: "none", label: words[0] },
        { value: "header", label: words[1] },
        { value: "footer", label: words[2] },
      ]);
    }
  });

  it("shows a JSON value too long for an input read-only and keeps it on save", async () => {
    const schema = (await store.getSchema(NAVIGATION))!;
    const long = Array.from({ length: 400 }, (_, i) => ({ label: `Eintrag ${i}`, slug: `eintrag-${i}` }));
    const stored = { children: { de: long, en: [{ label: "Short" }] } };
    const form = itemForm(schema, "de", stored);
    expect(form.readOnly).toContain("children");
    expect(form.definition.fields.map((f) => f.name)).not.toContain("children__de");
    expect(form.definition.fields.map((f) => f.name)).not.toContain("children__en");
    expect(dataFromValues(schema, { label__de: "Menü" }, stored, form).children).toEqual(stored.children);
    expect(itemForm(schema, "de", { children: { de: [{ label: "kurz" }] } })).toBe(adminItemForm(schema, "de"));
  });
});
