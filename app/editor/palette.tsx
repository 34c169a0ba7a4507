import { memo, useId, useMemo, useState } from "react";
import { pressForDrag } from "./drag";
import { animateNew } from "./motion";
import { docOf, useEditorStore, type EditorStore } from "./editor-store";
import { useEnv, type EditorEnv } from "./env";
import { pathOf, ROOT } from "./model";
import { newBlock } from "./new-block";
import { useDropResolver } from "./use-drop";
import { log } from "~/lib/log";

/** Where a block inserted by keyboard or click goes: after the active block, inside it when it is an empty container, else at the end. */
export function insertionPoint(store: EditorStore, env: EditorEnv, rootOnly = false): { parent: string; index: number } {
  const state = store.get();
  const doc = docOf(state);
  let active = state.active ? doc.blocks[state.active] : undefined;
  if (!active) return { parent: ROOT, index: doc.children[ROOT]?.length ?? 0 };
  // A container goes only onto the page itself (one nesting level): after the active block's top-level block.
  if (rootOnly) active = doc.blocks[pathOf(doc, active.id)[0] ?? active.id] ?? active;
  else if (env.schemas.get(active.schemaId)?.container && (doc.children[active.id]?.length ?? 0) === 0) return { parent: active.id, index: 0 };
  const parent = doc.parent[active.id] ?? ROOT;
  return { parent, index: (doc.children[parent]?.indexOf(active.id) ?? -1) + 1 };
}

/**
 * Makes a new block of a kind and inserts it (§4, §5, §9). A kind with a field that has neither a
 * default nor a known tag is not created: logged, and the editor is told which fields.
 */
export function insertNew(store: EditorStore, env: EditorEnv, name: string, at?: { parent: string; index: number }): string | null {
  const schema = env.schemas.get(name);
  if (!schema) return null;
  const made = newBlock(schema, store.ctx.newId());
  if (!made.ok) {
    log.error("A block cannot be created: fields without a default or a known tag", { schema: name, fields: made.fields });
    return env.t.cannotCreate(env.label(name), made.fields.join(", "));
  }
  const { parent, index } = at ?? insertionPoint(store, env, schema.container);
  store.dispatch({ type: "insert", parent, index, blocks: [made.block] });
  animateNew(store.get().selected);
  env.announce(env.t.inserted(env.label(name)));
  env.refreshData();
  return null;
}

/**
 * The palette (§1, §4): the active entries of core-settings-blocks, grouped by category and
 * searchable; a click or Enter inserts at the cursor, dragging drops where the line shows. Below
 * it, the "add a block" form of the spec, which asks for a component first.
 */
export const Palette = memo(function Palette() {
  const env = useEnv();
  const { payload, t } = env;
  const store = useEditorStore();
  const resolve = useDropResolver();
  const [query, setQuery] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [chosen, setChosen] = useState("");
  const searchId = useId();
  const selectId = useId();
  const groups = useMemo(() => {
    const q = query.trim().toLocaleLowerCase(env.ui);
    const shown = payload.palette.filter((p) => !q || `${p.label} ${p.description} ${p.name}`.toLocaleLowerCase(env.ui).includes(q));
    const byCategory = new Map<string, typeof shown>();
    for (const p of shown) byCategory.set(p.category, [...(byCategory.get(p.category) ?? []), p]);
    const order = ["layout", "content", "practitioners", "forms"];
    const rank = (c: string) => (order.includes(c) ? order.indexOf(c) : order.length);
    return [...byCategory.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
  }, [payload.palette, query, env.ui]);

  const insert = (name: string) => setMessage(insertNew(store, env, name));
  return (
    <div className="space-y-4">
      <form
        className="space-y-2 rounded border border-black/15 p-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen) setMessage(t.chooseFirst);
          else insert(chosen);
        }}
      >
        <label htmlFor={selectId} className="block text-sm font-semibold">
          {t.addBlock}
        </label>
        <div className="flex gap-2">
          <select id={selectId} className="min-w-0 flex-1 rounded border border-black/30 px-2 py-1 text-sm" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">{t.chooseComponent}</option>
            {payload.palette.map((p) => (
              <option key={p.name} value={p.name}>
                {p.label}
              </option>
            ))}
          </select>
          <button type="submit" className="rounded bg-[#0f5e63] px-3 py-1 text-sm font-semibold text-white">
            {t.add}
          </button>
        </div>
        {message ? (
          <p role="alert" className="text-sm text-[#b3261e]">
            {message}
          </p>
        ) : null}
      </form>
      <div className="space-y-1">
        <label htmlFor={searchId} className="block text-sm font-semibold">
          {t.search}
        </label>
        <input id={searchId} type="search" className="w-full rounded border border-black/30 px-2 py-1 text-sm" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {groups.length === 0 ? <p className="text-sm text-black/70">{t.noMatch}</p> : null}
      {groups.map(([category, entries]) => (
        <section key={category} aria-labelledby={`palette-${category}`}>
          <h3 id={`palette-${category}`} className="mb-1 text-xs font-semibold uppercase tracking-wide text-black/70">
            {t.categories[category] ?? category}
          </h3>
          <ul className="space-y-1">
            {entries.map((p) => (
              <li key={p.name}>
                <button
                  type="button"
                  data-palette-item={p.name}
                  className="w-full cursor-grab touch-none rounded border border-black/15 px-2 py-1.5 text-left text-sm hover:border-[#0f5e63] focus-visible:outline-2 focus-visible:outline-[#0f5e63]"
                  onClick={() => insert(p.name)}
                  onPointerDown={(e) =>
                    pressForDrag(e, {
                      label: p.label,
                      scroller: document.querySelector<HTMLElement>("[data-canvas-scroller]"),
                      resolve: (x, y) => resolve(x, y, [], env.schemas.get(p.name)?.container === true),
                      onStateChange: (on) => {
                        const root = document.querySelector<HTMLElement>("[data-editor-root]");
                        if (root) root.dataset.dragging = on ? "true" : "false";
                      },
                      onDrop: (target) => setMessage(insertNew(store, env, p.name, target)),
                    })
                  }
                >
                  <span className="block font-medium">{p.label}</span>
                  {p.description ? <span className="block text-xs text-black/70">{p.description}</span> : null}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
});
