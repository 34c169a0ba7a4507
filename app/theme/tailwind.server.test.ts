import { describe, expect, it } from "vitest";
import { compileContentCss } from "./tailwind.server";

const TOKENS = ["text-4xl", "md:text-5xl", "font-bold", "bg-main-12", "text-accent--6", "font-serif", "font-support", "w-1/2"];

describe("compileContentCss", () => {
  it("generates rules for exactly the given tokens", async () => {
    const css = await compileContentCss([...TOKENS, "bg-[url(javascript:alert(1))]", "</style>"]);
    expect(css).toMatch(/\.text-4xl\s*\{[^}]*font-size:\s*var\(--text-4xl\)/);
    expect(css).toMatch(/@media \(min-width: 48rem\)\s*\{\s*\.md\\:text-5xl\s*\{[^}]*font-size:\s*var\(--text-5xl\)/);
    expect(css).toMatch(/\.bg-main-12\s*\{\s*background-color:\s*var\(--color-main-12\);?\s*\}/);
    expect(css).toMatch(/\.text-accent--6\s*\{\s*color:\s*var\(--color-accent--6\);?\s*\}/);
    expect(css).toMatch(/\.font-serif\s*\{\s*font-family:\s*var\(--font-serif\)/);
    expect(css).toMatch(/--font-serif:\s*"Literata", ui-serif/);
    expect(css).toMatch(/\.font-support\s*\{\s*font-family:\s*var\(--font-support\)/);
    expect(css).toMatch(/\.w-1\\\/2\s*\{\s*width:\s*50%/);
    // Theme colours are never (re)defined by Tailwind: they come from the theme bundle's :root.
    expect(css).not.toMatch(/--color-main-12\s*:/);
    expect(css).not.toContain("javascript");
    expect(css).not.toContain("url(");
    expect(css).not.toContain("</style>");
    // Nothing that was not asked for.
    expect(css).not.toMatch(/\.text-5xl\s*\{/);
    expect(css).not.toContain(".bg-main-6");
  });

  it("caches by the token set, regardless of order and duplicates", async () => {
    const first = compileContentCss(["font-bold", "text-xl"]);
    expect(compileContentCss(["text-xl", "font-bold", "text-xl"])).toBe(first);
    expect(await first).toContain(".text-xl");
  });

  it("compiles a new token set well under a second once warm", async () => {
    await compileContentCss(["p-4"]);
    const started = performance.now();
    const css = await compileContentCss([...TOKENS, "mt-8", "md:flex", "hover:bg-main--18"]);
    const ms = performance.now() - started;
    console.info(`compileContentCss: ${ms.toFixed(1)} ms for a new token set (warm)`);
    expect(css).toContain(".mt-8");
    expect(ms).toBeLessThan(500);
  });
});
