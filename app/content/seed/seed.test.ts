import { describe, expect, it } from "vitest";
import type { FieldProperties, NestedField, SchemaInput } from "../types";
import { berlinLocalToUtc, berlinOffsetMinutes, buildAppointmentSeed } from "./appointments";
import { PRESENT_ASSET_ID, demoAssets } from "./assets";
import { type DemoItem, buildDemoContent } from "./content";
import { BLOCK_SCHEMA_NAMES, demoSchemas } from "./schemas";

const NOW = new Date("2026-03-25T16:45:00Z");
const items = buildDemoContent(NOW);
const schemaByName = new Map(demoSchemas.map((s) => [s.name, s]));
const itemById = new Map(items.map((i) => [i.id, i]));
const assetIds = new Set(demoAssets.map((a) => a.id));
const LANGS = ["de", "en"];

function itemsOf(schema: string): DemoItem[] {
  return items.filter((i) => i.schema === schema);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(item: DemoItem, field: string, partition = "iv"): string {
  const value = item.data[field]?.[partition];
  if (typeof value !== "string") throw new Error(`${item.id}.${field}.${partition} is not a string`);
  return value;
}

/** A page's blocks in one language, each section followed by its children. */
function blocksOf(page: DemoItem, lang: string): Record<string, unknown>[] {
  const blocks = page.data["blocks"]?.[lang];
  return (Array.isArray(blocks) ? blocks : []).filter(isRecord).flatMap((b) => [b, ...(Array.isArray(b["blocks"]) ? b["blocks"].filter(isRecord) : [])]);
}

/* A small validator for the store shape, driven by the schemas: every problem becomes one message. */

function checkValue(props: FieldProperties, nested: Omit<NestedField, "fieldId">[] | undefined, value: unknown, path: string, errors: string[]): void {
  const fail = (msg: string): void => {
    errors.push(`${path}: ${msg}`);
  };
  const checkList = (list: unknown[]): void => {
    if (props.maxItems !== undefined && list.length > props.maxItems) fail(`more than ${props.maxItems} items`);
    if (props.minItems !== undefined && list.length < props.minItems) fail(`fewer than ${props.minItems} items`);
  };

  switch (props.fieldType) {
    case "String": {
      if (typeof value !== "string") return fail("expected a string");
      if (props.maxLength !== undefined && value.length > props.maxLength) fail(`longer than ${props.maxLength}`);
      if (props.minLength !== undefined && value.length < props.minLength) fail(`shorter than ${props.minLength}`);
      if (props.pattern !== undefined && !new RegExp(props.pattern).test(value)) fail(`does not match ${props.pattern}`);
      if (props.allowedValues !== undefined && !props.allowedValues.includes(value)) fail(`"${value}" not allowed`);
      if (props.isRequired === true && value.trim() === "") fail("required but empty");
      return;
    }
    case "Number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return fail("expected a number");
      if (props.minValue !== undefined && value < props.minValue) fail(`below ${props.minValue}`);
      if (props.maxValue !== undefined && value > props.maxValue) fail(`above ${props.maxValue}`);
      return;
    }
    case "Boolean":
      if (typeof value !== "boolean") fail("expected a boolean");
      return;
    case "DateTime":
      if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/.test(value)) fail("expected an ISO UTC string");
      return;
    case "Tags": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return fail("expected string[]");
      if (props.allowedValues !== undefined) {
        for (const v of value) if (!props.allowedValues.includes(v)) fail(`tag "${v}" not allowed`);
      }
      return checkList(value);
    }
    case "Assets": {
      if (!Array.isArray(value)) return fail("expected asset ids");
      for (const id of value) if (typeof id !== "string" || !assetIds.has(id)) fail(`unknown asset ${String(id)}`);
      return checkList(value);
    }
    case "References": {
      if (!Array.isArray(value)) return fail("expected item ids");
      for (const id of value) {
        const target = typeof id === "string" ? itemById.get(id) : undefined;
        if (target === undefined) fail(`unknown reference ${String(id)}`);
        else if (props.schemaIds !== undefined && !props.schemaIds.includes(target.schema)) fail(`${target.id} is a ${target.schema}`);
      }
      if (props.isRequired === true && value.length === 0) fail("required but empty");
      return checkList(value);
    }
    case "Geolocation": {
      if (!isRecord(value)) return fail("expected { latitude, longitude }");
      const { latitude, longitude, ...rest } = value;
      if (typeof latitude !== "number" || latitude < -90 || latitude > 90) fail("bad latitude");
      if (typeof longitude !== "number" || longitude < -180 || longitude > 180) fail("bad longitude");
      if (Object.keys(rest).length > 0) fail(`extra keys ${Object.keys(rest).join(",")}`);
      return;
    }
    case "Array": {
      if (!Array.isArray(value)) return fail("expected an array");
      const fields = new Map((nested ?? []).map((n) => [n.name, n]));
      value.forEach((row, index) => {
        if (!isRecord(row)) return fail(`[${index}] is not an object`);
        for (const [key, v] of Object.entries(row)) {
          const n = fields.get(key);
          if (n === undefined) errors.push(`${path}[${index}].${key}: not a nested field`);
          else checkValue(n.properties, undefined, v, `${path}[${index}].${key}`, errors);
        }
        for (const n of fields.values()) {
          if (n.properties.isRequired === true && !(n.name in row)) errors.push(`${path}[${index}].${n.name}: required`);
        }
      });
      return checkList(value);
    }
    case "Component":
      return checkComponent(props, value, path, errors, false);
    case "Components": {
      if (!Array.isArray(value)) return fail("expected an array of components");
      value.forEach((c, index) => checkComponent(props, c, `${path}[${index}]`, errors, true));
      return checkList(value);
    }
    default:
      fail(`no demo data expected for ${props.fieldType}`);
  }
}

function checkComponent(props: FieldProperties, value: unknown, path: string, errors: string[], needsId: boolean): void {
  if (!isRecord(value)) {
    errors.push(`${path}: expected a component object`);
    return;
  }
  const { schemaId, id, ...fields } = value;
  const schema = typeof schemaId === "string" ? schemaByName.get(schemaId) : undefined;
  if (schema === undefined || schema.type !== "Component") {
    errors.push(`${path}: unknown component schema ${String(schemaId)}`);
    return;
  }
  if (props.schemaIds !== undefined && !props.schemaIds.includes(schema.name)) errors.push(`${path}: ${schema.name} not allowed here`);
  if (needsId && (typeof id !== "string" || id === "")) errors.push(`${path}: block without id`);
  if (!needsId && id !== undefined) errors.push(`${path}: unexpected id`);
  checkFields(schema, fields, path, errors, (field, v) => checkValue(field.properties, field.nested, v, `${path}.${field.name}`, errors));
}

function checkFields(
  schema: SchemaInput,
  data: Record<string, unknown>,
  path: string,
  errors: string[],
  checkField: (field: SchemaInput["fields"][number], value: unknown) => void,
): void {
  const fields = new Map(schema.fields.map((f) => [f.name, f]));
  for (const [key, value] of Object.entries(data)) {
    const field = fields.get(key);
    if (field === undefined) errors.push(`${path}.${key}: not a field of ${schema.name}`);
    else checkField(field, value);
  }
  for (const field of schema.fields) {
    if (field.properties.isRequired === true && !(field.name in data)) errors.push(`${path}.${field.name}: required field missing`);
  }
}

function validateItem(item: DemoItem): string[] {
  const errors: string[] = [];
  const schema = schemaByName.get(item.schema);
  if (schema === undefined) return [`${item.id}: unknown schema ${item.schema}`];
  if (schema.type === "Component") return [`${item.id}: items cannot use component schema ${item.schema}`];
  checkFields(schema, item.data, item.id, errors, (field, partitions) => {
    const path = `${item.id}.${field.name}`;
    if (!isRecord(partitions)) return errors.push(`${path}: expected a partition object`);
    const keys = Object.keys(partitions).sort();
    const expected = field.partitioning === "invariant" ? ["iv"] : LANGS;
    if (keys.join(",") !== expected.join(",")) errors.push(`${path}: partitions ${keys.join(",")}, expected ${expected.join(",")}`);
    for (const [key, value] of Object.entries(partitions)) checkValue(field.properties, field.nested, value, `${path}.${key}`, errors);
    return undefined;
  });
  return errors;
}

/* ------------------------------------------------------------------------------------------- */

describe("demo schemas", () => {
  it("have unique, valid names and unique field names", () => {
    const names = demoSchemas.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const s of demoSchemas) {
      expect(s.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const fieldNames = s.fields.map((f) => f.name);
      expect(new Set(fieldNames).size, s.name).toBe(fieldNames.length);
      for (const f of s.fields) {
        expect(f.name).toMatch(/^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$/);
        expect(Object.keys(f.properties)[0], `${s.name}.${f.name}`).toBe("fieldType");
        expect(f.properties.label, `${s.name}.${f.name}`).toBeTruthy();
        if (f.properties.fieldType === "Array") expect(f.nested?.length, `${s.name}.${f.name}`).toBeGreaterThan(0);
      }
    }
  });

  it("only point at schemas that exist", () => {
    for (const s of demoSchemas) {
      for (const f of s.fields) {
        for (const target of f.properties.schemaIds ?? []) expect(schemaByName.has(target), `${s.name}.${f.name} → ${target}`).toBe(true);
      }
    }
  });

  it("give every block field a default or a tag, so the editor can create the block", () => {
    for (const name of BLOCK_SCHEMA_NAMES) {
      const s = schemaByName.get(name);
      expect(s?.type).toBe("Component");
      for (const f of s?.fields ?? []) {
        const ok = f.properties.defaultValue !== undefined || (f.properties.tags ?? []).length > 0;
        expect(ok, `${name}.${f.name}`).toBe(true);
      }
    }
  });
});

describe("demo content", () => {
  it("is deterministic for a given now", () => {
    expect(buildDemoContent(NOW)).toEqual(items);
  });

  it("has unique item ids", () => {
    expect(itemById.size).toBe(items.length);
  });

  it("matches the schemas: fields, partitions, types, references, assets", () => {
    expect(items.flatMap(validateItem)).toEqual([]);
  });

  it("gives every block a unique id, a section's children too", () => {
    const ids = itemsOf("core-pages").flatMap((page) => LANGS.flatMap((lang) => blocksOf(page, lang).map((b) => b["id"])));
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("about-de-1-section-2-image");
  });

  it("has unique page slugs per language, including the nested guide slug", () => {
    for (const lang of LANGS) {
      const slugs = itemsOf("core-pages").map((page) => {
        const seo = page.data["seo"]?.[lang];
        return isRecord(seo) ? seo["slug"] : undefined;
      });
      expect(new Set(slugs).size, lang).toBe(slugs.length);
      expect(slugs).toContain(lang === "de" ? "ratgeber/rueckenschmerzen" : "guide/back-pain");
    }
  });

  it("has a critical home page and a draft-only page", () => {
    const home = itemById.get("page-home");
    expect(home?.data["critical"]?.["iv"]).toBe(true);
    const drafts = itemsOf("core-pages").filter((p) => p.status === "Draft");
    expect(drafts.map((p) => p.id)).toEqual(["page-draft-summer"]);
  });

  it("uses every block schema on some page and lists it in the palette", () => {
    const used = new Set(itemsOf("core-pages").flatMap((page) => blocksOf(page, "de").map((b) => b["schemaId"])));
    const palette = new Set(itemsOf("core-settings-blocks").map((i) => str(i, "name")));
    for (const name of BLOCK_SCHEMA_NAMES) {
      expect(palette.has(name), `palette ${name}`).toBe(true);
      expect(used.has(name), `page uses ${name}`).toBe(true);
    }
  });

  it("uses plain Tailwind tokens only in text styles", () => {
    for (const style of itemsOf("core-text-styles")) expect(str(style, "twclasses")).toMatch(/^[a-z0-9:-]+( [a-z0-9:-]+)*$/);
  });

  it("references only known icons", () => {
    const icons = new Set(itemsOf("core-theme-icons").map((i) => str(i, "name")));
    for (const item of [...itemsOf("core-backend-navigation"), ...itemsOf("core-settings-blocks")]) {
      const icon = item.data["icon"]?.["iv"];
      if (icon !== undefined) expect(icons.has(String(icon)), item.id).toBe(true);
    }
    for (const icon of itemsOf("core-theme-icons")) expect(str(icon, "svg")).toMatch(/^<svg [^>]*viewBox="0 0 24 24"[^>]*>.*<\/svg>$/);
  });
});

describe("demo practitioners", () => {
  const practitioners = itemsOf("gm-content-practitioners");
  const published = practitioners.filter((p) => p.status === "Published");
  const names = published.map((p) => str(p, "name"));

  it("has at least 30 published practitioners and one draft", () => {
    expect(published.length).toBeGreaterThanOrEqual(30);
    expect(practitioners.filter((p) => p.status === "Draft").length).toBeGreaterThanOrEqual(1);
  });

  it("has names with umlauts and ß", () => {
    expect(names.some((n) => /[äöüÄÖÜ]/.test(n))).toBe(true);
    expect(names.some((n) => n.includes("ß"))).toBe(true);
  });

  it("has two practitioners with the same name in different cities", () => {
    const byName = new Map<string, string[]>();
    for (const p of published) byName.set(str(p, "name"), [...(byName.get(str(p, "name")) ?? []), str(p, "city")]);
    const twins = [...byName.values()].filter((cities) => cities.length > 1);
    expect(twins.length).toBeGreaterThanOrEqual(1);
    expect(new Set(twins[0]).size).toBe(twins[0]?.length);
  });

  it("covers hidden and other-site entries", () => {
    const websites = (p: DemoItem): unknown => p.data["websites"]?.["iv"];
    expect(published.filter((p) => p.data["display"]?.["iv"] === false).length).toBeGreaterThanOrEqual(3);
    expect(published.filter((p) => JSON.stringify(websites(p)) === '["HEILNETZ"]').length).toBeGreaterThanOrEqual(3);
    expect(published.filter((p) => JSON.stringify(websites(p)) === '["PRAXISNETZ","HEILNETZ"]').length).toBeGreaterThanOrEqual(2);
    expect(published.filter((p) => p.data["coords2"] !== undefined).length).toBeGreaterThanOrEqual(2);
  });

  it("uses only fictional contact data", () => {
    for (const p of practitioners) {
      expect(str(p, "email")).toMatch(/^[a-z.0-9]+@example\.org$/);
      expect(str(p, "phone")).toMatch(/^\+49 30 000000\d{2}$/);
    }
  });
});

describe("demo appointments", () => {
  const appointments = itemsOf("gm-appointments");
  const starts = appointments.map((a) => new Date(str(a, "start")));

  it("has about 60 slots for about 10 practitioners", () => {
    expect(appointments.length).toBeGreaterThanOrEqual(50);
    const practitioners = new Set(appointments.map((a) => JSON.stringify(a.data["practitioner"]?.["iv"])));
    expect(practitioners.size).toBeGreaterThanOrEqual(8);
  });

  it("lies in the future, within about three weeks", () => {
    const limit = NOW.getTime() + 24 * 24 * 3600_000;
    for (const start of starts) {
      expect(start.getTime()).toBeGreaterThan(NOW.getTime());
      expect(start.getTime()).toBeLessThan(limit);
    }
  });

  it("stays in the future for any now, including late evening", () => {
    const lateNow = new Date("2026-10-24T23:59:00Z");
    for (const appt of buildDemoContent(lateNow).filter((i) => i.schema === "gm-appointments")) {
      expect(new Date(str(appt, "start")).getTime()).toBeGreaterThan(lateNow.getTime());
    }
  });

  it("falls on weekdays during Berlin office hours, without double slots", () => {
    const seen = new Set<string>();
    appointments.forEach((a, index) => {
      const start = starts[index] ?? new Date(NaN);
      const local = new Date(start.getTime() + berlinOffsetMinutes(start.getTime()) * 60_000);
      expect([1, 2, 3, 4, 5]).toContain(local.getUTCDay());
      expect(local.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local.getUTCHours()).toBeLessThan(18);
      const key = `${JSON.stringify(a.data["practitioner"]?.["iv"])}@${start.toISOString()}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    });
  });

  it("has about a quarter booked, each with a booking beside the slot and none in it", () => {
    const booked = appointments.filter((a) => a.data["booked"]?.["iv"] === true);
    expect(booked.length / appointments.length).toBeGreaterThan(0.15);
    expect(booked.length / appointments.length).toBeLessThan(0.35);
    const { bookings } = buildAppointmentSeed(NOW);
    expect(bookings.map((b) => b.appointmentId).sort()).toEqual(booked.map((a) => a.id).sort());
    for (const b of bookings) {
      expect(b.name).not.toBe("");
      expect(b.email).toMatch(/@example\.org$/);
    }
    for (const a of appointments) expect(Object.keys(a.data).filter((k) => k.startsWith("booker"))).toEqual([]);
  });

  it("converts Berlin wall-clock time to UTC across daylight saving time", () => {
    expect(berlinLocalToUtc(2026, 0, 15, 9 * 60).toISOString()).toBe("2026-01-15T08:00:00.000Z");
    expect(berlinLocalToUtc(2026, 6, 15, 9 * 60).toISOString()).toBe("2026-07-15T07:00:00.000Z");
    // 2026: summer time from 29 March, back to winter time on 25 October.
    expect(berlinLocalToUtc(2026, 2, 27, 9 * 60).toISOString()).toBe("2026-03-27T08:00:00.000Z");
    expect(berlinLocalToUtc(2026, 2, 30, 9 * 60).toISOString()).toBe("2026-03-30T07:00:00.000Z");
    expect(berlinLocalToUtc(2026, 9, 23, 9 * 60).toISOString()).toBe("2026-10-23T07:00:00.000Z");
    expect(berlinLocalToUtc(2026, 9, 26, 9 * 60).toISOString()).toBe("2026-10-26T08:00:00.000Z");
  });
});

describe("demo assets", () => {
  it("include the newsletter present, a PDF whose cross-reference table points at its objects", () => {
    const present = demoAssets.find((a) => a.id === PRESENT_ASSET_ID)!;
    expect(present.mimeType).toBe("application/pdf");
    const bytes = Buffer.from(present.body, "latin1");
    const text = bytes.toString("latin1");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    const xrefAt = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xrefAt, xrefAt + 4)).toBe("xref");
    const offsets = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((o, i) => expect(text.slice(o, o + 8)).toBe(`${i + 1} 0 obj\n`));
    expect(text).toContain("(Praxisnetz: Checkliste f\\374r den ersten Termin)");
  });

  it("are small SVGs with size and viewBox", () => {
    const images = demoAssets.filter((a) => a.mimeType.startsWith("image/"));
    expect(images.length).toBeGreaterThanOrEqual(3);
    expect(images.length).toBeLessThanOrEqual(5);
    expect(new Set(demoAssets.map((a) => a.id)).size).toBe(demoAssets.length);
    for (const asset of images) {
      expect(asset.mimeType).toBe("image/svg+xml");
      expect(asset.fileName).toMatch(/^[a-z0-9-]+\.svg$/);
      expect(new TextEncoder().encode(asset.body).length, asset.id).toBeLessThan(4096);
      expect(asset.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+">/);
      expect(asset.body.trimEnd().endsWith("</svg>")).toBe(true);
    }
  });
});
