import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { ADMIN_SCREENS, signIn } from "./admin-helpers";
import { waitForHydration } from "./helpers";

/**
 * Every admin screen, as an editor opens it on a laptop (1280 px) and on a tablet (820 px): axe with
 * all its rules, the enhanced contrast rule (WCAG AAA, 7:1) included, finds nothing (issue 22).
 */
type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

function describe(violations: Violation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}${n.failureSummary ? ` – ${n.failureSummary.replace(/\s+/g, " ")}` : ""}`).join("\n")}`)
    .join("\n");
}

/** Words of an English interface that never belong in the German one. */
const ENGLISH_UI_WORDS = /\b(?:Save|Delete|Cancel|Edit|Search|Error|[Ff]ailed|[Rr]equired|Unknown|Unsupported|Sign out|Settings|Upload|Published|Draft|Changed|none|header|footer|Invalid|Not found|Next|Previous)\b/;

const SCREENS: string[] = [
  ...ADMIN_SCREENS,
  // The design screens' detail panels, open on one entry and on a new one.
  "/manage/squidex/icons?selected=icon-loader",
  "/manage/squidex/icons?selected=new",
  "/manage/colors?selected=color-petrol",
  "/manage/colors?selected=theme-standard",
  "/manage/colors?selected=new-theme",
  "/manage/text-styles?selected=text-heading-1",
  // Item screens with the structured controls: rows, a component form, pickers, colours, choices.
  "/manage/content/gm-content-practitioners/prac-001",
  "/manage/content/gm-content-practitioners/new",
  "/manage/content/core-global-settings/global-settings",
  "/manage/content/core-pages/page-home",
  "/manage/content/core-font-styles/font-sans",
  "/manage/content/core-backend-navigation/nav-content",
  "/manage/content/core-theme-settings/theme-standard",
];

/** The first link on `from` whose path matches `pattern`: a page, a block, a collection, an item. */
async function firstLink(page: Page, from: string, pattern: RegExp): Promise<string> {
  await page.goto(from);
  const hrefs = await page.locator("main a[href]").evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  const found = hrefs.find((h) => pattern.test(h));
  expect(found, `a link matching ${pattern} on ${from}`).toBeTruthy();
  return found!;
}

for (const width of [1280, 820]) {
  test(`every admin screen at ${width} px: no axe violations, AAA contrast included`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    const screens = [...SCREENS];
    screens.push(await firstLink(page, "/manage/pages", /^\/manage\/pages\/[^/]+$/));
    screens.push(await firstLink(page, "/manage/blocks", /^\/manage\/blocks\/[^/]+$/));
    const collection = await firstLink(page, "/manage/content", /^\/manage\/content\/[^/]+$/);
    screens.push(collection);
    screens.push(await firstLink(page, collection, /^\/manage\/content\/[^/]+\/[^/]+$/));
    const problems: string[] = [];
    for (const path of screens) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await waitForHydration(page);
      const { violations } = await new AxeBuilder({ page }).options({ rules: { "color-contrast-enhanced": { enabled: true } } }).analyze();
      if (violations.length) problems.push(`${path}\n${describe(violations)}`);
      // The German admin speaks German: its own words (headings, buttons, labels, messages) hold no
      // English. Content (titles, texts) is left out: it is whatever editors wrote.
      const english = await page.evaluate((pattern) => {
        const words = new RegExp(pattern, "g");
        const chrome = document.querySelectorAll("main h1, main h2, main h3, nav, button, label, th, option, [role=status], [role=alert], [data-save-result], legend, summary");
        const found = new Set<string>();
        for (const el of chrome) for (const m of (el as HTMLElement).innerText.matchAll(words)) found.add(m[0]);
        return [...found];
      }, ENGLISH_UI_WORDS.source);
      if (english.length) problems.push(`${path}: English in the German admin: ${english.join(", ")}`);
    }
    expect(problems.join("\n\n"), "axe violations").toBe("");
  });
}
