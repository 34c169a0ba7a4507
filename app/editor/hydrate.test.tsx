// @vitest-environment happy-dom
import { act } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SiteContext } from "~/site/site-context";
import EditMode from "./edit-mode";
import { contentPage, data, N, payload, site } from "./fixtures.test-support";

/**
 * Opening edit mode hydrates the editor, not the page (issue 21): the blocks the server rendered
 * keep the server's markup, and no block component runs in the browser until that block is edited.
 * Its own file: which markup is the server's is decided once per page load (module state).
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;


describe("edit mode hydrates at 200 blocks", () => {
  let container: HTMLElement;
  let root: Root;
  const bodies = new Map<string, number>();
  const probe = { blockRendered: () => {}, bodyRendered: (id: string) => bodies.set(id, (bodies.get(id) ?? 0) + 1) };
  const tree = () => (
    <MemoryRouter>
      <SiteContext.Provider value={site}>
        <EditMode language="de" page={contentPage} blockData={data} editor={payload} probe={probe} />
      </SiteContext.Provider>
    </MemoryRouter>
  );
  const block = (id: string) => container.querySelector<HTMLElement>(`[data-block-id="${id}"]`)!;
  let serverHtml = "";
  let firstHeading: Element | null = null;

  beforeAll(async () => {
    // The fields panel checks input with the forms engine, a chunk loaded on first use: loaded here,
    // so no check is still loading when the test ends.
    await import("~/forms/engine");
    globalThis.fetch = (() => Promise.reject(new TypeError("offline in this test"))) as typeof fetch;
    Object.defineProperty(navigator, "sendBeacon", { value: () => true, configurable: true });
    // The server's answer (no document there): every block rendered once.
    vi.stubGlobal("document", undefined);
    try {
      serverHtml = renderToString(tree());
    } finally {
      vi.unstubAllGlobals();
    }
    expect(bodies.size).toBe(N);
    bodies.clear();
    container = document.createElement("div");
    container.innerHTML = serverHtml;
    document.body.append(container);
    firstHeading = block("b150").querySelector("h2");
    await act(async () => {
      root = hydrateRoot(container, tree());
    });
  });
  afterAll(async () => {
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    await act(async () => root.unmount());
    container.remove();
  });

  it("runs no block's component: the canvas keeps the server's markup and nodes", () => {
    expect(container.querySelector("[data-editor-ready='1']")).not.toBeNull();
    expect(container.querySelectorAll("[data-block-id]")).toHaveLength(N);
    expect([...bodies.keys()]).toEqual([]);
    expect(block("b150").querySelector("h2")).toBe(firstHeading);
    expect(block("b150").textContent).toContain("Block 150");
  });

  it("an edited block is rendered by its component from then on; undo keeps it right", async () => {
    await act(async () => block("b150").click());
    const input = container.querySelector<HTMLInputElement>("#f-b150-heading")!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "Geändert");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(block("b150").textContent).toContain("Geändert");
    expect([...bodies.keys()]).toEqual(["b150"]);
    const undo = [...container.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Rückgängig")!;
    await act(async () => undo.click());
    // Back to the first data: shown by the component (the server's markup is gone for good), right.
    expect(block("b150").textContent).toContain("Block 150");
    expect(block("b150").textContent).not.toContain("Geändert");
    expect(block("b149").textContent).toContain("Block 149");
  });
});
