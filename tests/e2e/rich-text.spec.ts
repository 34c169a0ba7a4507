import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "./fixtures";
import { sanitizeRichText } from "../../app/site/rich-text.server";
import { waitForHydration } from "./helpers";

/**
 * The editor's rich-text field (app/editor/fields/rich-text-field.tsx) and the canvas sanitiser
 * (app/editor/sanitize.ts) in a real browser, on the test page /__test/rich-text: what an author
 * does with mouse and keyboard, and the exact HTML the field hands on.
 */

/** The field's latest output, as the test page shows it. */
function output(page: Page): Locator {
  return page.locator("output[data-html]");
}

async function expectHtml(page: Page, html: string) {
  await expect(output(page)).toHaveAttribute("data-html", html);
}

async function changes(page: Page): Promise<number> {
  return Number(await output(page).getAttribute("data-changes"));
}

/** Opens the test page and waits for the field (a lazily loaded chunk) to be there. */
async function openField(page: Page, query = "") {
  const response = await page.goto(`/__test/rich-text${query}`);
  expect(response?.status()).toBe(200);
  await waitForHydration(page);
  const name = query.includes("lang=en") ? "Content" : "Inhalt";
  const text = page.getByRole("textbox", { name });
  await expect(text).toBeVisible();
  await expect(text).toHaveAttribute("contenteditable", "true");
  return text;
}

/**
 * Waits until Lexical has taken in the text selected with the keyboard. It follows the DOM
 * selection on `selectionchange`, an event that arrives a moment after the keys; a shortcut pressed
 * before would act on the old selection. A person never types that fast, a test does. The editor
 * object is the one Lexical keeps on its root element (what its getNearestEditorFromDOMNode reads).
 */
async function expectSelected(text: Locator, selected: string) {
  await expect
    .poll(() =>
      text.evaluate((el) => {
        type State = { read<T>(fn: () => T): T; _selection: { getTextContent(): string } | null };
        const editor = (el as unknown as { __lexicalEditor: { getEditorState(): State } }).__lexicalEditor;
        const state = editor.getEditorState();
        return state.read(() => state._selection?.getTextContent() ?? null);
      }),
    )
    .toBe(selected);
}

/** Every tag in `html` with its attributes, to check a string against the field's allow-list. */
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)].map((m) => `${m[1]}${m[2]}`);
}

const FIELD_TAG = /^(p|br|h2|h3|ul|ol|li|strong|em|a href="[^"]*")$/;

test("typing, headings, bold and italic from the toolbar and the keyboard, lists: exactly the allowed HTML", async ({ page }) => {
  const text = await openField(page, "?start=empty");
  await expectHtml(page, "");
  await text.click();
  for (const line of ["Titel", "Hallo Welt", "Wichtig", "Eins"]) {
    await page.keyboard.type(line);
    await page.keyboard.press("Enter");
  }
  await page.keyboard.type("Zwei");
  await expectHtml(page, "<p>Titel</p><p>Hallo Welt</p><p>Wichtig</p><p>Eins</p><p>Zwei</p>");

  // Heading 2 from the toolbar, for the block with the cursor.
  await text.getByText("Titel").click();
  await page.getByRole("button", { name: "Überschrift 2" }).click();
  await expect(page.getByRole("button", { name: "Überschrift 2" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "Absatz" })).toHaveAttribute("aria-pressed", "false");
  await expect(text.locator("h2")).toHaveText("Titel");

  // Bold from the toolbar on a selected word.
  await text.getByText("Hallo Welt").click();
  await page.keyboard.press("End");
  for (let i = 0; i < 4; i++) await page.keyboard.press("Shift+ArrowLeft");
  await expectSelected(text, "Welt");
  await page.getByRole("button", { name: "Fett" }).click();
  await expect(page.getByRole("button", { name: "Fett" })).toHaveAttribute("aria-pressed", "true");

  // Bold and italic with Ctrl+B and Ctrl+I.
  await text.getByText("Wichtig").click();
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  await expectSelected(text, "Wichtig");
  await page.keyboard.press("Control+b");
  await page.keyboard.press("Control+i");
  await expect(page.getByRole("button", { name: "Fett" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "Kursiv" })).toHaveAttribute("aria-pressed", "true");

  // A bulleted list of the last two lines.
  await text.getByText("Eins").click();
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Shift+End");
  await expectSelected(text, "Eins\nZwei");
  await page.getByRole("button", { name: "Aufzählung" }).click();
  await expect(page.getByRole("button", { name: "Aufzählung" })).toHaveAttribute("aria-pressed", "true");

  const html = "<h2>Titel</h2><p>Hallo <strong>Welt</strong></p><p><strong><em>Wichtig</em></strong></p><ul><li>Eins</li><li>Zwei</li></ul>";
  await expectHtml(page, html);
  for (const tag of tagsOf(html)) expect(tag.replace(/^\//, "")).toMatch(FIELD_TAG);

  // Moving the cursor is no change: the next onChange is the next edit.
  const before = await changes(page);
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Home");
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await expect(output(page)).toHaveAttribute("data-html", /!/);
  expect(await changes(page)).toBe(before + 1);
});

test("numbered list, heading 3 and paragraph switch blocks back and forth (English)", async ({ page }) => {
  const text = await openField(page, "?lang=en");
  // The stored value is read on mount, and reading it is no change.
  await expect(text.locator("h2")).toHaveText("Sprechzeiten");
  await expect(text.locator("strong")).toHaveText("Freitag");
  expect(await changes(page)).toBe(0);
  await expect(page.getByRole("toolbar", { name: "Formatting: Content" })).toBeVisible();

  await text.getByText("Montag").click();
  await page.getByRole("button", { name: "Numbered list" }).click();
  await expectHtml(page, "<h2>Sprechzeiten</h2><ol><li>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</li></ol>");
  await expect(page.getByRole("button", { name: "Numbered list" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Numbered list" }).click();
  await expectHtml(page, "<h2>Sprechzeiten</h2><p>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</p>");

  await text.getByText("Sprechzeiten").click();
  await page.getByRole("button", { name: "Heading 3" }).click();
  await expectHtml(page, "<h3>Sprechzeiten</h3><p>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</p>");
  await page.getByRole("button", { name: "Paragraph" }).click();
  await expectHtml(page, "<p>Sprechzeiten</p><p>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</p>");
  await expect(page.getByRole("button", { name: "Paragraph" })).toHaveAttribute("aria-pressed", "true");

  // Straight from one kind of block to another: heading to list, list to list, list to heading.
  await page.getByRole("button", { name: "Heading 2" }).click();
  await page.getByRole("button", { name: "Bulleted list" }).click();
  await expectHtml(page, "<ul><li>Sprechzeiten</li></ul><p>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</p>");
  await page.getByRole("button", { name: "Numbered list" }).click();
  await expectHtml(page, "<ol><li>Sprechzeiten</li></ol><p>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</p>");
  await expect(page.getByRole("button", { name: "Bulleted list" })).toHaveAttribute("aria-pressed", "false");
  await page.getByRole("button", { name: "Heading 3" }).click();
  await expectHtml(page, "<h3>Sprechzeiten</h3><p>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</p>");
  await expect(page.getByRole("button", { name: "Heading 3" })).toHaveAttribute("aria-pressed", "true");
});

test("links: an allowed address is linked, javascript: refused with a message, edited, removed", async ({ page }) => {
  const text = await openField(page, "?start=empty");
  await text.click();
  await page.keyboard.type("Praxis Kontakt");
  for (let i = 0; i < "Kontakt".length; i++) await page.keyboard.press("Shift+ArrowLeft");
  await expectSelected(text, "Kontakt");
  await expect(page.getByRole("button", { name: "Link entfernen" })).toHaveAttribute("aria-disabled", "true");

  await page.getByRole("button", { name: "Link einfügen" }).click();
  const address = page.getByRole("textbox", { name: "Linkadresse" });
  await expect(address).toBeFocused();
  await address.fill("javascript:alert(1)");
  await address.press("Enter");
  await expect(page.getByRole("alert")).toHaveText("Diese Adresse geht nicht. Erlaubt sind Adressen mit http:// oder https://, mailto:, tel: oder ein Pfad, der mit / beginnt.");
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expectHtml(page, "<p>Praxis Kontakt</p>");

  await address.fill("https://example.org/kontakt");
  await expect(page.getByRole("alert")).toHaveCount(0);
  await page.getByRole("button", { name: "Übernehmen" }).click();
  await expectHtml(page, '<p>Praxis <a href="https://example.org/kontakt">Kontakt</a></p>');
  await expect(address).toHaveCount(0);
  await expect(text).toBeFocused();

  // With the cursor in the link: the form shows its address, and a path replaces it.
  await text.getByText("Kontakt").click();
  await expect(page.getByRole("button", { name: "Link entfernen" })).not.toHaveAttribute("aria-disabled");
  await page.getByRole("button", { name: "Link einfügen" }).click();
  await expect(address).toHaveValue("https://example.org/kontakt");
  await address.fill("/kontakt");
  await address.press("Enter");
  await expectHtml(page, '<p>Praxis <a href="/kontakt">Kontakt</a></p>');

  await text.getByText("Kontakt").click();
  await page.getByRole("button", { name: "Link entfernen" }).click();
  await expectHtml(page, "<p>Praxis Kontakt</p>");
  await expect(page.getByRole("button", { name: "Link entfernen" })).toHaveAttribute("aria-disabled", "true");
});

test("the refusal speaks the editor's language (English)", async ({ page }) => {
  const text = await openField(page, "?start=empty&lang=en");
  await text.click();
  await page.keyboard.type("Contact");
  await page.keyboard.press("Shift+Home");
  await expectSelected(text, "Contact");
  await page.getByRole("button", { name: "Insert link" }).click();
  const address = page.getByRole("textbox", { name: "Link address" });
  await address.fill("data:text/html,<b>x</b>");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("alert")).toHaveText("This address cannot be used. Allowed are addresses with http:// or https://, mailto:, tel: or a path starting with /.");
  await address.fill("mailto:praxis@example.org");
  await page.getByRole("button", { name: "Apply" }).click();
  await expectHtml(page, '<p><a href="mailto:praxis@example.org">Contact</a></p>');
});

test("pasted HTML comes out clean: no script, handler, style, class or span", async ({ page }) => {
  const text = await openField(page, "?start=empty");
  await text.click();
  const pasted =
    `<p style="color:red" class="x" dir="rtl">Hallo <span class="fancy" style="color:blue">Welt</span><img src="x" onerror="window.__ranPasted = 'img'"></p>` +
    `<script>window.__ranPasted = "script"</script><style>p { color: red }</style>` +
    `<h1 onclick="window.__ranPasted = 'click'">Titel</h1>` +
    `<p><u>unter</u> <a href="javascript:window.__ranPasted = 'link'">böse</a> <a href="https://example.org" target="_blank" class="c">gut</a></p>`;
  await text.evaluate((el, html) => {
    const data = new DataTransfer();
    data.setData("text/html", html);
    data.setData("text/plain", "plain");
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, pasted);
  await expectHtml(page, '<p>Hallo Welt</p><h2>Titel</h2><p>unter böse <a href="https://example.org">gut</a></p>');
  // What the author sees is what is stored: no styles or classes in the editor's own markup either.
  await expect(text.locator("[style*=color], span.fancy, img, script, u")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __ranPasted?: string }).__ranPasted)).toBeUndefined();
});

test("stored text with scripts in it neither runs in the field nor in the canvas preview", async ({ page }) => {
  const text = await openField(page, "?start=hostile");
  await expect(text.locator("h2")).toHaveText("Titel");
  await expect(text.locator("img, script, [onclick], [onerror]")).toHaveCount(0);
  const preview = page.locator("[data-preview]");
  await expect(preview).toBeAttached();
  expect(await preview.innerHTML()).toBe(
    '<p>Vorher</p><h2>Titel</h2><p><a>böse</a> <a href="https://example.org" rel="noopener noreferrer">gut</a></p>',
  );
  expect(await page.evaluate(() => (window as unknown as { __ranHostile?: string }).__ranHostile)).toBeUndefined();
  // Reading it in is no change; the first edit writes the field's own, clean HTML.
  expect(await changes(page)).toBe(0);
  await text.getByText("Vorher").click();
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await expectHtml(page, '<p>Vorher!</p><h2>Titel</h2><p>böse <a href="https://example.org">gut</a></p>');
});

test("a value set from outside while the field is not focused replaces the text, and is not echoed", async ({ page }) => {
  const text = await openField(page, "?start=empty");
  await text.click();
  await page.keyboard.type("Entwurf");
  await expectHtml(page, "<p>Entwurf</p>");
  const before = await changes(page);
  await page.getByRole("button", { name: "Wert von außen setzen" }).click();
  await expect(text).toHaveText("Von außen gesetzt");
  await expectHtml(page, "<p>Von außen gesetzt</p>");
  expect(await changes(page)).toBe(before);
  await text.getByText("gesetzt").click();
  // "Absatz" on a paragraph rewrites the block in Lexical but not the HTML: no change to report.
  await page.getByRole("button", { name: "Absatz" }).click();
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await expectHtml(page, "<p>Von außen gesetzt!</p>");
  expect(await changes(page)).toBe(before + 1);

  // The field's undo goes back to the value it was given (undoing "!" and "Absatz"), not further
  // to the draft before it.
  await page.keyboard.press("Control+z");
  await expectHtml(page, "<p>Von außen gesetzt</p>");
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  await page.keyboard.press("End");
  await page.keyboard.type("?");
  await expectHtml(page, "<p>Von außen gesetzt?</p>");
});

test("keyboard only: Tab reaches the toolbar, arrows move in it, Tab reaches the text and leaves it", async ({ page }) => {
  const text = await openField(page, "?start=empty");
  await page.locator("h1").click();
  await page.keyboard.press("Tab");
  // The toolbar is one stop (roving tabindex): its first button.
  await expect(page.getByRole("button", { name: "Absatz" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("button", { name: "Überschrift 2" })).toBeFocused();
  await page.keyboard.press("End");
  await expect(page.getByRole("button", { name: "Link entfernen" })).toBeFocused();
  await page.keyboard.press("Home");
  await expect(page.getByRole("button", { name: "Absatz" })).toBeFocused();

  await page.keyboard.press("Tab");
  await expect(text).toBeFocused();
  await page.keyboard.type("Sprechstunde heute");
  await page.keyboard.press("Shift+Home");
  await expectSelected(text, "Sprechstunde heute");

  // Back to the toolbar with the text still selected; bold applies to it.
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByRole("button", { name: "Absatz" })).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("button", { name: "Fett" })).toBeFocused();
  await page.keyboard.press("Space");
  await expectHtml(page, "<p><strong>Sprechstunde heute</strong></p>");
  await expect(page.getByRole("button", { name: "Fett" })).toHaveAttribute("aria-pressed", "true");
  // After an action the text has the focus again, to type on.
  await expect(text).toBeFocused();

  // Tab leaves the field (no trap); Shift+Tab comes back to the text, then to the last button used.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Wert von außen setzen" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(text).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByRole("button", { name: "Fett" })).toBeFocused();
});

test("the public pages do not load the field: Lexical is a chunk of its own", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (req) => {
    if (req.resourceType() === "script") scripts.push(new URL(req.url()).pathname);
  });
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await waitForHydration(page);
  expect(scripts.length, "the home page loads scripts").toBeGreaterThan(0);
  expect(scripts.filter((s) => /rich-text|sanitize/.test(s))).toEqual([]);
  expect(await page.content()).not.toMatch(/rich-text-field/);

  // The test page does load it, lazily.
  await openField(page);
  expect(scripts.filter((s) => /rich-text-field/.test(s))).toHaveLength(1);
});

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

function describeViolations(violations: Violation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`).join("\n");
}

test("no axe violations on the field, with the link form open and its message shown", async ({ page }) => {
  const text = await openField(page);
  await expect(text).toHaveAttribute("aria-describedby", "rich-text-help");
  const check = async (what: string) => {
    const { violations, passes } = await new AxeBuilder({ page }).include("[data-rich-text-field]").analyze();
    expect(passes.length, "axe checked something").toBeGreaterThan(5);
    expect(describeViolations(violations), `axe violations: ${what}`).toBe("");
  };
  await check("field");
  await text.getByText("Freitag").dblclick();
  await check("with a selection");
  await page.getByRole("button", { name: "Link einfügen" }).click();
  await page.getByRole("textbox", { name: "Linkadresse" }).fill("ftp://example.org");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert")).toBeVisible();
  await check("link form with its message");
});

/** Inputs for both sanitisers: each a thing the rules decide. */
const SANITISER_CASES = [
  `<p>plain <strong>bold</strong> <em>em</em> <b>b</b> <i>i</i> <u>u</u> <s>s</s></p>`,
  `<img src=x onerror="alert(1)"><p>after</p>`,
  `<a href="javascript:alert(1)">x</a>`,
  `<a href="JaVaScRiPt:alert(1)">x</a>`,
  `<a href="java&#x09;script:alert(1)">x</a>`,
  `<a href=" javascript:alert(1)">x</a>`,
  `<a href="data:text/html,x">x</a>`,
  `<a href="vbscript:x">x</a>`,
  `<a href="//evil.example/">x</a>`,
  `<a href="/\\evil.example/">x</a>`,
  `<a href="https://example.org" rel="opener" target="_blank" title="T" hreflang="de" class="c" style="color:red">ext</a>`,
  `<a href="HTTP://EXAMPLE.ORG">ext</a>`,
  `<a href="mailto:a@example.org">m</a> <a href="tel:+4930123">t</a> <a href="/pfad">p</a> <a href="relativ">r</a> <a href="#top">h</a> <a href="?q=1">q</a>`,
  `<h1 id="x">Titel</h1><h2>zwei</h2><h3>drei</h3><h4>vier</h4><h5>fünf</h5><h6>sechs</h6>`,
  `<script>alert(1)</script><style>p{}</style><p>rest</p>`,
  `<iframe src="https://example.org"></iframe><object data="x"></object><embed src="x"><p>after</p>`,
  `<div class="a"><span style="color:red">in span</span></div>`,
  `<table><thead><tr><th scope="col" colspan="2">h</th></tr></thead><tbody><tr><td colspan="2" rowspan="1" scope="row">d</td></tr></tbody></table>`,
  `<ul><li>a<ol><li>b</li></ol></li></ul><blockquote>q</blockquote><pre><code>c</code></pre><hr><small>s</small><sub>1</sub><sup>2</sup>`,
  `<p onclick="x()" data-x="1" aria-label="l" dir="rtl" lang="en">attrs</p>`,
  `<form action="/x"><input name="a"><button>b</button><textarea>t</textarea><select><option>o</option></select></form>`,
  `<!-- comment --><p>text &amp; &lt;tag&gt;</p>`,
  `<a href="https://example.org/?a=1&b=2">amp</a>`,
  `<noscript><p>ns</p></noscript>`,
  `<p>unclosed <strong>bold <em>both</p>`,
];

test("the canvas sanitiser keeps what the page sanitiser keeps, and removes img onerror and javascript: links", async ({ page }) => {
  await openField(page);
  await page.waitForFunction(() => typeof (window as unknown as { __sanitizeRichTextClient?: unknown }).__sanitizeRichTextClient === "function");
  const sanitize = (html: string) => page.evaluate((h) => (window as unknown as { __sanitizeRichTextClient: (h: string) => string }).__sanitizeRichTextClient(h), html);

  expect(await sanitize(`<img src=x onerror="alert(1)"><p>after</p>`)).toBe("<p>after</p>");
  expect(await sanitize(`<a href="javascript:alert(1)">x</a>`)).toBe("<a>x</a>");
  expect(await sanitize(`<a href="https://example.org" rel="opener">x</a>`)).toBe('<a href="https://example.org" rel="noopener noreferrer">x</a>');
  expect(await sanitize(`<a href="//evil.example/">x</a>`)).toBe("<a>x</a>");
  expect(await sanitize(`<h1 class="c">T</h1>`)).toBe("<h2>T</h2>");
  // The one difference: DOMPurify drops what is inside svg, math and template as well
  // (sanitize-html keeps its text); stricter, and nothing an author means to write.
  expect(await sanitize(`<svg onload="alert(1)"><circle/></svg><math><mi>x</mi></math><template><p>tpl</p></template><p>after</p>`)).toBe("<p>after</p>");

  // Against the server's sanitiser on the same inputs, both outputs parsed by the browser so
  // that only their meaning is compared, not how each library writes quotes or <br>.
  for (const input of SANITISER_CASES) {
    const [client, server] = await page.evaluate(
      ([h, fromServer]) => {
        const normal = (html: string) => {
          const t = document.createElement("template");
          t.innerHTML = html;
          return t.innerHTML;
        };
        return [normal((window as unknown as { __sanitizeRichTextClient: (h: string) => string }).__sanitizeRichTextClient(h)), normal(fromServer)];
      },
      [input, sanitizeRichText(input)] as const,
    );
    expect(client, `sanitised in the browser: ${input}`).toBe(server);
  }
});
