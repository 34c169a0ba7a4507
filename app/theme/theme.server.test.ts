import { describe, expect, it } from "vitest";
import type { DemoItem } from "~/content/seed/helpers";
import { COLORS, fontStyleItems, iconItems, textStyleItems, themeSettingsItems } from "~/content/seed/theme";
import { shade, type ThemeSettings } from "./shades";
import { type ThemeInput, buildTheme } from "./theme.server";

/** What the content layer hands us: each field's invariant value, or its German one. */
function flat<T>(item: DemoItem): T {
  const fields = Object.entries(item.data).map(([key, value]) => {
    const v = value as { iv?: unknown; de?: unknown };
    return [key, "iv" in v ? v.iv : v.de];
  });
  return { id: item.id, ...Object.fromEntries(fields) } as T;
}

function demoInput(): ThemeInput {
  return {
    settings: flat<ThemeSettings>(themeSettingsItems[0]!),
    textStyles: textStyleItems.map((i) => flat(i)),
    fontStyles: fontStyleItems.map((i) => flat(i)),
    icons: iconItems.map((i) => flat(i)),
  };
}

describe("buildTheme with the demo data", () => {
  it("builds the stylesheet without warnings", async () => {
    const theme = await buildTheme(demoInput());
    expect(theme.warnings).toEqual([]);
    const css = theme.css;

    expect(css).toContain(`--color-main: ${COLORS.petrol.toLowerCase()};`);
    expect(css).toContain(`--color-main-12: ${shade(COLORS.petrol, 12)};`);
    expect(css).toContain(`--color-accent--6: ${shade(COLORS.koralle, -6)};`);
    expect(css).toContain("--color-white: #ffffff;");
    expect(css).toContain('--font-main: "Source Sans 3", ui-sans-serif, system-ui, sans-serif;');
    expect(css).toContain('--font-support: "Literata", ui-sans-serif');
    expect(css).toContain('--font-navbar: "Source Sans 3"');
    expect(css).toContain('--font-flowingtext: "Source Sans 3"');

    expect(css.match(/@font-face/g)).toHaveLength(5);
    expect(css).toContain(
      '@font-face {\n  font-family: "Source Sans 3";\n  font-style: normal;\n  font-weight: 400;\n  font-display: optional;\n' +
        '  src: url("/fonts/source-sans-3-400.woff2") format("woff2");\n}',
    );
    expect(css).toContain('src: url("/fonts/literata-700.woff2") format("woff2")');
    // Only the regular face of the main/flowing-text font is preloaded (not Literata: support role).
    expect(theme.fontPreloads).toEqual(["/fonts/source-sans-3-400.woff2"]);

    expect(css).toMatch(/@media \(min-width: 48rem\)\s*\{\s*\.md\\:text-5xl\s*\{/);
    expect(css).toMatch(/\.tracking-widest\s*\{/);
    expect(css).toMatch(/\.font-serif\s*\{\s*font-family: var\(--font-serif\)/);
    expect(css).not.toContain("</");
  });

  it("returns the text styles and all demo icons, sanitised", async () => {
    const theme = await buildTheme(demoInput());
    expect(theme.textStyles["heading-1"]).toBe("text-4xl md:text-5xl font-bold tracking-tight leading-tight");
    expect(Object.keys(theme.textStyles)).toHaveLength(textStyleItems.length);

    expect(Object.keys(theme.icons)).toHaveLength(iconItems.length);
    expect(theme.icons.loader).toMatchObject({ critical: true, loading: true });
    expect(theme.icons.leaf).toMatchObject({ critical: false, loading: false });
    expect(theme.icons.heart?.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24"[^>]*><path d="M12 20s/);
  });

  it("is deterministic, and the hash follows the css", async () => {
    const [a, b] = await Promise.all([buildTheme(demoInput()), buildTheme(demoInput())]);
    expect(b).toEqual(a);
    expect(a.hash).toMatch(/^[0-9a-f]{12}$/);

    const ruhig = await buildTheme({ ...demoInput(), settings: flat<ThemeSettings>(themeSettingsItems[1]!) });
    expect(ruhig.css).toContain(`--color-main: ${COLORS.taubenblau.toLowerCase()};`);
    expect(ruhig.hash).not.toBe(a.hash);
  });

  it("includes extra class tokens from content", async () => {
    const theme = await buildTheme({ ...demoInput(), extraClassTokens: ["bg-main-12", "md:grid-cols-3", "bg-[red]"] });
    expect(theme.css).toMatch(/\.bg-main-12\s*\{\s*background-color: var\(--color-main-12\)/);
    expect(theme.css).toMatch(/\.md\\:grid-cols-3\s*\{/);
    expect(theme.warnings).toEqual(['Invalid class tokens in content ignored: "bg-[red]"']);
  });

  it("reports and drops bad content", async () => {
    const input = demoInput();
    input.settings = { ...input.settings!, colorAccent: "#12345" };
    input.textStyles.push({ name: "evil", twclasses: "text-xl bg-[url(javascript:alert(1))] text-red-500;}body{display:none" });
    input.icons.push({ id: "icon-evil", name: "evil", svg: "<svg><script>alert(1)</script></svg>" });
    input.icons.push({ id: "icon-onload", name: "onload", svg: '<svg viewBox="0 0 24 24" onload="alert(1)"><path d="M0 0" /></svg>' });
    input.fontStyles.push({
      name: "Remote",
      mission: ["main", "headline"],
      font: [
        { name: "Remote", weight: 400, url: "https://fonts.example/remote.woff2", type: "woff2" },
        { name: "Remote", weight: 400, url: "//fonts.example/remote.woff2" },
        { name: "Remote", weight: 400, url: '/fonts/x.woff2") ; } body { x: url("' },
        { name: "Bad}Name", weight: 400, url: "/fonts/ok.woff2" },
      ],
    });

    const theme = await buildTheme(input);
    expect(theme.warnings).toEqual([
      'Bad Hex: colorAccent "#12345", using #e9785d',
      'Text style "evil": invalid class tokens ignored: "bg-[url(javascript:alert(1))]" "text-red-500;}body{display:none"',
      'Font style "Remote": font url "https://fonts.example/remote.woff2" is not a same-origin path, ignored',
      'Font style "Remote": font url "//fonts.example/remote.woff2" is not a same-origin path, ignored',
      'Font style "Remote": font url "/fonts/x.woff2\\") ; } body { x: url(\\"" is not a same-origin path, ignored',
      'Font style "Remote": invalid family name "Bad}Name" ignored',
      'Font style "Remote": mission "main" is already taken, ignored',
      'Font style "Remote": unknown mission "headline" ignored',
      'Icon "evil" (icon-evil) dropped: no valid SVG left after sanitising',
    ]);
    expect(theme.css).toContain("--color-accent: #e9785d;");
    expect(theme.css).not.toMatch(/javascript|fonts\.example|Bad\}Name|display:\s*none/);
    expect(theme.textStyles.evil).toBe("text-xl");
    expect(theme.icons.evil).toBeUndefined();
    expect(theme.icons.onload?.svg).toBe('<svg viewBox="0 0 24 24"><path d="M0 0" /></svg>');
  });

  it("scopes every theme settings item to a .theme-<id> class", async () => {
    const themes = themeSettingsItems.map((i) => flat<ThemeSettings & { id: string; name: string }>(i));
    themes.push({ ...themes[1]!, id: "bad id}", name: "Kaputt" }, { ...themes[1]!, id: "theme-grau", name: "Grau", colorMain: "grau" });
    const theme = await buildTheme({ ...demoInput(), themes });
    expect(theme.css).toContain(`.theme-theme-ruhig {\n  --color-main: ${COLORS.taubenblau.toLowerCase()};\n  --color-main--18: `);
    expect(theme.css).toContain(`.theme-theme-standard {\n  --color-main: ${COLORS.petrol.toLowerCase()};`);
    expect(theme.css).toContain(".theme-theme-grau {\n  --color-main: #0f5e63;");
    expect(theme.css).not.toContain("bad id");
    expect(theme.warnings).toEqual([
      'Theme "Kaputt": invalid id "bad id}", theme ignored',
      'Theme "Grau" (theme-grau): Bad Hex: colorMain "grau", using #0f5e63',
    ]);
  });

  it("uses the default palette and fallback fonts without settings or font styles", async () => {
    const theme = await buildTheme({ settings: null, textStyles: [], fontStyles: [], icons: [] });
    expect(theme.warnings).toEqual([]);
    expect(theme.css).toContain("--color-main: #0f5e63;");
    expect(theme.css).toContain("--font-main: ui-sans-serif, system-ui, sans-serif;");
    expect(theme.css).not.toContain("@font-face");
  });
});
