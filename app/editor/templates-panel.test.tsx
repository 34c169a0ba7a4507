import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Block } from "~/blocks/types";
import { PresenceNotice } from "./presence";
import { TemplatesPanel } from "./templates-panel";

/**
 * The first render of the presence notice and the templates panel, as the server sends it (their
 * requests start in effects, in the browser): what an editor sees before anything has loaded.
 */

const one: Block[] = [{ schemaId: "block-richtext", id: "b1", html: "<p>x</p>" }];

describe("the templates panel's first render", () => {
  it("offers saving the selection only when something is selected", () => {
    const none = renderToStaticMarkup(<TemplatesPanel language="de" getSelection={() => []} onInsert={() => {}} />);
    expect(none).toMatch(/<button[^>]*disabled=""[^>]*data-template-save[^>]*>Auswahl als Vorlage speichern<\/button>/);
    expect(none).toContain("Wählen Sie zuerst einen oder mehrere Blöcke aus.");
    expect(none).toContain("Vorlagen werden geladen …");

    const some = renderToStaticMarkup(<TemplatesPanel language="en" getSelection={() => one} onInsert={() => {}} />);
    expect(some).toMatch(/<button type="button" class="[^"]*"[^>]*data-template-save[^>]*>Save selection as template<\/button>/);
    expect(some).not.toMatch(/disabled=""[^>]*data-template-save/);
    // The count, when given, decides (the panel's parent follows the selection).
    const counted = renderToStaticMarkup(<TemplatesPanel language="en" getSelection={() => one} onInsert={() => {}} selectedCount={0} />);
    expect(counted).toMatch(/disabled=""[^>]*data-template-save/);
  });
});

describe("the presence notice's first render", () => {
  it("is an empty live region until someone else is there", () => {
    expect(renderToStaticMarkup(<PresenceNotice pageId="p1" language="de" />)).toBe('<span role="status"></span>');
  });
});
