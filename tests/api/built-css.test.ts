import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module script without types
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";

/**
 * The stylesheet every visitor loads is compiled from the app's code alone (issue 20, finding
 * 10c): Tailwind scanned the tests too and compiled the hostile class names they hold on purpose
 * (`bg-[url(javascript:alert(1))]` and the like) into it.
 */

const assets = path.resolve(import.meta.dirname, "../../build/client/assets");
let css: Array<{ name: string; text: string }>;

beforeAll(() => {
  buildIfNeeded();
  css = fs
    .readdirSync(assets)
    .filter((name) => name.endsWith(".css"))
    .map((name) => ({ name, text: fs.readFileSync(path.join(assets, name), "utf8") }));
}, 300_000);

describe("the built stylesheets", () => {
  it("hold no javascript: URL", () => {
    expect(css.length).toBeGreaterThan(0);
    for (const { name, text } of css) expect(text.replace(/\\/g, ""), name).not.toMatch(/javascript:/i);
  });

  it("hold no class that only tests name, and still the app's own", () => {
    const app = css.find((c) => c.name.startsWith("app-"))!.text;
    // Named only in app/theme/*.test.ts, app/admin/design/design.server.test.ts and tests/e2e.
    for (const selector of [".bg-\\[url\\(x\\)\\]", ".bg-\\[red\\]", ".w-\\[calc\\(100\\%-1rem\\)\\]", ".text-red-500\\!", ".bg-\\(--my-var\\)"]) expect(app, selector).not.toContain(`${selector}{`);
    // Named in app/blocks/cta and the site layout.
    expect(app).toContain(".md\\:flex-row{");
  });
});
