import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { PAGE_TYPES, waitForHydration } from "./helpers";

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/** One line per violation and node, so a failure says what to fix and where. */
function describe(violations: Violation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}${n.failureSummary ? ` – ${n.failureSummary.replace(/\s+/g, " ")}` : ""}`).join("\n")}`)
    .join("\n");
}

const pages = [
  ...PAGE_TYPES,
  { name: "content page (en)", path: "/en/about-us" },
  { name: "directory (en)", path: "/en/practitioners" },
  { name: "directory, page 2 (de)", path: "/practitioners?page=2" },
  { name: "profile (en)", path: "/en/practitioners/juergen-weiss" },
];

for (const { name, path } of pages) {
  test(`no axe violations, all rules (not only WCAG A/AA): ${name} ${path}`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    // Check the hydrated page, as visitors get it.
    await waitForHydration(page);
    const { violations, passes } = await new AxeBuilder({ page }).analyze();
    expect(passes.length, "axe checked something").toBeGreaterThan(10);
    expect(describe(violations), `axe violations on ${path}`).toBe("");
  });
}
