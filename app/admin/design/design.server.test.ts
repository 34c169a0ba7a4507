import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSchemas } from "~/content/seed/schemas";
import type { ContentStore } from "~/content/store";
import { compileContentCss } from "~/theme/tailwind.server";
import { isHexColor } from "~/theme/shades";
import { sqliteStoreBackend, type StoreBackend } from "../../../tests/support/store-backends";
import { checkColor, checkIcon, checkTextStyle, checkTheme, classSelector, COLORS, expectedVersion, getDesignItem, ICONS, listDesignPage, pageParam, tokensWithCss, writeDesignItem } from "./design.server";
import { colorForm, formErrors } from "./forms";

const SCRIPTED_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><script>alert(1)</script><path d="M0 0h24v24H0z" onclick="alert(2)"/></svg>';

describe("hex rule of the colour form", () => {
  it("agrees with the theme's own hex check, in both languages", async () => {
    for (const hexcode of ["#abc", "#ABCDEF", "#0f5e63", "#abcd", "abc", "#ggg", "#12345", "", "#1234567", "# abc"]) {
      for (const language of ["de", "en"] as const) {
        const errors = await formErrors(colorForm(language), { name: "x", hexcode }, language);
        expect(errors.hexcode, hexcode).toEqual(isHexColor(hexcode) ? undefined : ["Bad Hex"]);
      }
    }
  });
});

describe("checking design forms", () => {
  it("refuses a bad hex code with exactly Bad Hex and keeps a good one", async () => {
    expect(await checkColor({ name: "Petrol", hexcode: "#0f5e6" }, "de")).toEqual({ ok: false, message: "Bad Hex", errors: { hexcode: ["Bad Hex"] } });
    expect(await checkColor({ name: " Petrol ", hexcode: " #0F5E63 " }, "en")).toEqual({ ok: true, data: { name: { iv: "Petrol" }, hexcode: { iv: "#0F5E63" } } });
  });

  it("refuses a colour without a name", async () => {
    const checked = await checkColor({ name: "", hexcode: "#fff" }, "en");
    expect(checked.ok).toBe(false);
    expect(checked.ok ? {} : checked.errors.name).toEqual(["Name is required."]);
  });

  it("checks every role colour of a theme", async () => {
    const fields = { name: "T", colorMain: "#111", colorSupport: "#222", colorAccent: "#333", colorNeutral: "#444", colorBlack: "#000", colorWhite: "#fff" };
    expect((await checkTheme(fields, "de")).ok).toBe(true);
    const bad = await checkTheme({ ...fields, colorAccent: "red" }, "de");
    expect(bad.ok ? null : bad.errors).toEqual({ colorAccent: ["Bad Hex"] });
  });

  it("names refused class tokens and stores only clean ones", async () => {
    const bad = await checkTextStyle({ name: "H1", twclasses: "text-4xl bg-[url(x)] font-bold !p-4" }, "en");
    expect(bad.ok).toBe(false);
    expect(bad.ok ? "" : bad.message).toContain("bg-[url(x)] !p-4");
    expect(await checkTextStyle({ name: "H1", twclasses: "  text-4xl  font-bold text-4xl " }, "de")).toEqual({ ok: true, data: { name: { iv: "H1" }, twclasses: { iv: "text-4xl font-bold" } } });
    expect((await checkTextStyle({ name: "H1", twclasses: "   " }, "de")).ok).toBe(false);
  });

  it("sanitises an icon and says so; refuses what is no icon", async () => {
    const checked = await checkIcon({ name: "box", svg: SCRIPTED_SVG, critical: "on" }, "en");
    if (!checked.ok) throw new Error(checked.message);
    expect(checked.cleaned).toBe(true);
    expect(checked.svg).not.toMatch(/script|alert|onclick/);
    expect(checked.data).toMatchObject({ critical: { iv: true }, loading: { iv: false } });
    const refused = await checkIcon({ name: "x", svg: "<svg><script>alert(1)</script></svg>" }, "de");
    expect(refused.ok ? null : Object.keys(refused.errors)).toEqual(["svg"]);
  });

  it("reads a page number, or refuses one that is none with a 400 and a message (1e20 was a 500)", () => {
    expect(pageParam(new URL("http://x/?page=3"))).toBe(3);
    expect(pageParam(new URL("http://x/?themes=2"), "themes")).toBe(2);
    expect(pageParam(new URL("http://x/"))).toBe(1);
    for (const query of ["page=1e20", "page=-1", "page=0", "page=abc", "page=99999999999", "page=%00"]) {
      let thrown: unknown;
      try {
        pageParam(new URL(`http://x/?${query}`), "page", "en");
      } catch (error) {
        thrown = error;
      }
      expect(thrown, query).toMatchObject({ init: { status: 400 }, data: { message: "The page number must be a whole number from 1." } });
    }
  });

  it("reads a version only when it is a whole number", () => {
    expect(expectedVersion({ version: "3" })).toBe(3);
    expect(expectedVersion({ version: "" })).toBeUndefined();
    expect(expectedVersion({ version: "x" })).toBeUndefined();
  });
});

describe("design items in a real store", () => {
  let backend: StoreBackend;
  let store: ContentStore;
  beforeAll(async () => {
    backend = sqliteStoreBackend("design", 1024 * 1024);
    store = await backend.openStore();
    await store.migrate();
    for (const schema of demoSchemas.filter((s) => s.name === COLORS || s.name === ICONS)) await store.upsertSchema(schema);
  });
  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("stores the sanitised SVG, never the given one", async () => {
    const checked = await checkIcon({ name: "box", svg: SCRIPTED_SVG }, "de");
    if (!checked.ok) throw new Error(checked.message);
    const item = await writeDesignItem(store, ICONS, undefined, checked.data, { by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false } });
    const stored = await store.get(ICONS, item.id);
    expect(stored?.status).toBe("Published");
    expect(String(stored?.data.svg?.iv)).not.toContain("script");
    expect(stored?.data.svg?.iv).toBe(checked.svg);
  });

  it("updates with the version seen and refuses a stale one", async () => {
    const created = await writeDesignItem(store, COLORS, undefined, { name: { iv: "A" }, hexcode: { iv: "#aaa" } }, { by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false } });
    const updated = await writeDesignItem(store, COLORS, created.id, { name: { iv: "A" }, hexcode: { iv: "#bbb" } }, { by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false }, expectedVersion: created.version });
    expect(updated.data.hexcode?.iv).toBe("#bbb");
    await expect(writeDesignItem(store, COLORS, created.id, { name: { iv: "A" }, hexcode: { iv: "#ccc" } }, { by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false }, expectedVersion: created.version })).rejects.toThrow();
  });

  it("pages through a collection sorted by name", async () => {
    for (const name of ["Zeta", "Beta", "Gamma"]) await writeDesignItem(store, COLORS, undefined, { name: { iv: name }, hexcode: { iv: "#123" } }, { by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false } });
    const first = await listDesignPage<{ name: string }>(store, COLORS, 1, "de", 2);
    const second = await listDesignPage<{ name: string }>(store, COLORS, 2, "de", 2);
    expect(first.pages).toBe(2);
    expect([...first.items, ...second.items].map((i) => i.data.name)).toEqual(["A", "Beta", "Gamma", "Zeta"]);
  });

  it("finds items by name or another field, ignoring case and accents, and reads one for the panel", async () => {
    const by = { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false };
    const moos = await writeDesignItem(store, COLORS, undefined, { name: { iv: "Moosgrün" }, hexcode: { iv: "#4a7a3c" } }, { by });
    await writeDesignItem(store, COLORS, undefined, { name: { iv: "Sand" }, hexcode: { iv: "#e0d2a8" } }, { by });
    const byName = await listDesignPage<{ name: string }>(store, COLORS, 1, "de", 10, "GRUN", ["name", "hexcode"]);
    expect(byName.items.map((i) => i.data.name)).toEqual(["Moosgrün"]);
    const byHex = await listDesignPage<{ name: string }>(store, COLORS, 1, "de", 10, "e0d2", ["name", "hexcode"]);
    expect(byHex.items.map((i) => i.data.name)).toEqual(["Sand"]);
    expect((await getDesignItem<{ name: string }>(store, COLORS, moos.id, "de"))?.data.name).toBe("Moosgrün");
    expect(await getDesignItem(store, COLORS, "no-such-colour", "de")).toBeNull();
    expect(await getDesignItem(store, COLORS, "../bad id", "de")).toBeNull();
  });
});

describe("which classes the compiled CSS has", () => {
  it("escapes tokens as CSS selectors", () => {
    expect(classSelector("md:p-0.5")).toBe(".md\\:p-0\\.5");
    expect(classSelector("w-1/2")).toBe(".w-1\\/2");
    expect(classSelector("2xl:text-lg")).toBe(".\\32 xl\\:text-lg");
  });

  it("finds compiled tokens and not unknown or missing ones", async () => {
    const css = await compileContentCss(["text-4xl", "md:p-0.5", "no-such-utility"]);
    expect(tokensWithCss(css, ["text-4xl", "md:p-0.5", "no-such-utility", "p-4", "text-4"])).toEqual(["text-4xl", "md:p-0.5"]);
  });
});
