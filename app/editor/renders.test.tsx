// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SiteContext } from "~/site/site-context";
import EditMode from "./edit-mode";
import { contentPage, data, N, payload, site } from "./fixtures.test-support";

/**
 * Only what an action touches re-renders (issue 21): at 200 blocks, choosing a block, typing in
 * its field, moving it and deleting the first block each render a handful of canvas blocks, never
 * the page. Counted with the editor's probe on the real editor, mounted in a DOM.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;


describe("canvas renders at 200 blocks", () => {
  let container: HTMLElement;
  let root: Root;
  const renders = new Map<string, number>();
  const parts = new Map<string, number>();
  const total = () => [...renders.values()].reduce((a, b) => a + b, 0);
  const probe = {
    blockRendered: (id: string) => renders.set(id, (renders.get(id) ?? 0) + 1),
    partRendered: (part: string) => parts.set(part, (parts.get(part) ?? 0) + 1),
  };
  const block = (id: string) => container.querySelector<HTMLElement>(`[data-block-id="${id}"]`)!;
  const button = (name: string) => [...container.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === name || b.textContent?.trim() === name)!;

  beforeEach(async () => {
    // The editor's network calls (presence, autosave) have nowhere to go here: they fail quietly.
    globalThis.fetch = (() => Promise.reject(new TypeError("offline in this test"))) as typeof fetch;
    Object.defineProperty(navigator, "sendBeacon", { value: () => true, configurable: true });
    container = document.createElement("div");
    document.body.append(container);
    root = createRoot(container);
    await act(async () => {
      root.render(
        <MemoryRouter>
          <SiteContext.Provider value={site}>
            <EditMode language="de" page={contentPage} blockData={data} editor={payload} probe={probe} />
          </SiteContext.Provider>
        </MemoryRouter>,
      );
    });
    renders.clear();
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    container.remove();
  });

  it("mounts every block once", async () => {
    expect(container.querySelectorAll("[data-block-id]")).toHaveLength(N);
  });

  it("choosing a block renders that block only", async () => {
    await act(async () => block("b150").click());
    expect(block("b150").getAttribute("aria-current")).toBe("true");
    expect([...renders.keys()]).toEqual(["b150"]);
    renders.clear();
    await act(async () => block("b10").click());
    expect(new Set(renders.keys())).toEqual(new Set(["b150", "b10"]));
  });

  it("a keystroke in the fields panel renders the edited block only", async () => {
    await act(async () => block("b150").click());
    renders.clear();
    const input = container.querySelector<HTMLInputElement>("#f-b150-heading")!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "Block 150!");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(block("b150").textContent).toContain("Block 150!");
    expect([...renders.keys()]).toEqual(["b150"]);
    expect(total()).toBeLessThanOrEqual(2);
  });

  it("the first keystroke after a save renders the save state, not the editor around the canvas", async () => {
    await act(async () => block("b150").click());
    const state = () => container.querySelector("[data-save-state]")!.getAttribute("data-save-state");
    expect(state()).toBe("saved");
    renders.clear();
    parts.clear();
    const input = container.querySelector<HTMLInputElement>("#f-b150-heading")!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "Block 150?");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(state()).toBe("unsaved");
    expect([...parts.keys()]).toEqual([]);
    expect([...renders.keys()]).toEqual(["b150"]);
  });

  it("a keystroke in one field leaves the block's other inputs alone", async () => {
    await act(async () => block("b150").click());
    const inputs = [...container.querySelectorAll<HTMLInputElement>('[id^="f-b150-"]')];
    expect(inputs.map((i) => i.id)).toEqual(["f-b150-heading", "f-b150-text", "f-b150-label", "f-b150-link"]);
    // React applies an input's attributes again (name, type, value) each time it renders one:
    // attribute changes on the other inputs would mean they were rendered again.
    const touched = new Set<string>();
    const observer = new MutationObserver((list) => list.forEach((m) => touched.add((m.target as Element).id)));
    for (const input of inputs) observer.observe(input, { attributes: true });
    const input = inputs[0]!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "Block 150!");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    observer.disconnect();
    expect(block("b150").textContent).toContain("Block 150!");
    expect([...touched].filter((id) => id !== "f-b150-heading")).toEqual([]);
  });

  it("moving a block renders at most the moved block", async () => {
    await act(async () => block("b150").click());
    renders.clear();
    await act(async () => button("Nach oben").click());
    const ids = [...container.querySelectorAll("[data-block-id]")].map((e) => e.getAttribute("data-block-id"));
    expect(ids.indexOf("b150")).toBe(149);
    expect(total()).toBeLessThanOrEqual(2);
  });

  it("deleting the first block renders only the blocks that now open the page", async () => {
    await act(async () => block("b0").click());
    renders.clear();
    await act(async () => button("Löschen").click());
    expect(container.querySelectorAll("[data-block-id]")).toHaveLength(N - 1);
    // b1 and b2 move up to the first positions (h1, eager images); b3…b199 stay as they were.
    expect(total()).toBeLessThanOrEqual(4);
    expect(renders.has("b100")).toBe(false);
  });

  it("duplicating renders the copy (and the new selection), not the page", async () => {
    await act(async () => block("b100").click());
    renders.clear();
    await act(async () => button("Duplizieren").click());
    expect(container.querySelectorAll("[data-block-id]")).toHaveLength(N + 1);
    expect(total()).toBeLessThanOrEqual(3);
  });
});
