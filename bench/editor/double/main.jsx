// A stand-in for our page editor, implementing only the contracts bench/editor/ours-side.mjs drives
// (SEL there): it lets `BENCH_EDITOR_OURS=double npm run bench:editor` exercise our side's driver
// before the real editor is merged. Its figures measure nothing of ours and must not be reported.
// dnd-kit core + sortable with a pointer sensor, as the editor uses.
import { useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { DndContext, PointerSensor, closestCenter, useSensor, useSensors } from "@dnd-kit/core";
import { SortableContext, arrayMove, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";

const LABELS = {
  "block-richtext": [["html", "Inhalt"]],
  "block-cta": [["heading", "Überschrift"], ["text", "Text"], ["label", "Button-Beschriftung"], ["link", "Button-Link"]],
  "block-accordion": [["heading", "Überschrift"]],
  "block-image": [["alt", "Alternativtext"], ["caption", "Bildunterschrift"]],
  "block-section": [["heading", "Überschrift"]],
};

function Block({ block, active, onSelect }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: block.id });
  const style = { transform: CSS.Transform.toString(transform), transition, padding: 12, margin: "8px 0", border: active ? "2px solid #0158ad" : "1px solid #ddd", position: "relative", background: "#fff", zIndex: isDragging ? 1 : 0 };
  return (
    <div ref={setNodeRef} style={style} data-block-id={block.id} data-block={block.schemaId} aria-current={active ? "true" : undefined} onClick={() => onSelect(block.id)}>
      <button type="button" data-drag-handle aria-label="Verschieben" {...attributes} {...listeners} style={{ position: "absolute", right: 4, top: 4 }}>⠿</button>
      {block.schemaId === "block-richtext" ? <div dangerouslySetInnerHTML={{ __html: block.html }} /> : null}
      {block.heading !== undefined ? <h3>{block.heading}</h3> : null}
      {block.text ? <p>{block.text}</p> : null}
      {block.alt ? <p>[{block.alt}]</p> : null}
      {block.blocks ? block.blocks.map((c) => <div key={c.id} data-block-id={c.id} data-block={c.schemaId}>{c.heading ?? c.alt ?? "…"}</div>) : null}
    </div>
  );
}

function Editor({ initial }) {
  const [blocks, setBlocks] = useState(initial);
  const [activeId, setActiveId] = useState(null);
  const [saveState, setSaveState] = useState("saved");
  const history = useRef([]);
  const [clipboard, setClipboard] = useState(null);
  const timer = useRef();
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const change = (next) => {
    history.current.push(blocks);
    setBlocks(next);
    setSaveState("saving");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSaveState("saved"), 150);
  };
  const index = blocks.findIndex((b) => b.id === activeId);
  const active = blocks[index];
  const act = {
    duplicate: () => active && change([...blocks.slice(0, index + 1), { ...active, id: crypto.randomUUID() }, ...blocks.slice(index + 1)]),
    delete: () => active && change(blocks.filter((b) => b.id !== activeId)),
    up: () => index > 0 && change(arrayMove(blocks, index, index - 1)),
    down: () => index >= 0 && index < blocks.length - 1 && change(arrayMove(blocks, index, index + 1)),
    undo: () => history.current.length && setBlocks(history.current.pop()),
    copy: () => active && setClipboard(active),
    paste: () => clipboard && change([...blocks.slice(0, index + 1), { ...clipboard, id: crypto.randomUUID() }, ...blocks.slice(index + 1)]),
  };
  return (
    <div data-editor-ready={ready ? "1" : undefined} style={{ display: "flex", fontFamily: "sans-serif" }}>
      <main style={{ flex: 1, padding: 16 }}>
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={({ active: a, over }) => {
            if (!over || a.id === over.id) return;
            const from = blocks.findIndex((b) => b.id === a.id);
            const to = blocks.findIndex((b) => b.id === over.id);
            change(arrayMove(blocks, from, to));
          }}
        >
          <SortableContext items={blocks.map((b) => b.id)} strategy={verticalListSortingStrategy}>
            {blocks.map((b) => (
              <Block key={b.id} block={b} active={b.id === activeId} onSelect={setActiveId} />
            ))}
          </SortableContext>
        </DndContext>
      </main>
      <aside style={{ width: 320, position: "sticky", top: 0, alignSelf: "flex-start", padding: 16 }}>
        <div>
          {Object.entries({ duplicate: "Duplizieren", delete: "Löschen", up: "Nach oben", down: "Nach unten", undo: "Rückgängig", copy: "Kopieren", paste: "Einfügen" }).map(([k, label]) => (
            <button key={k} type="button" onClick={act[k]} disabled={k === "paste" && !clipboard}>{label}</button>
          ))}
          <span data-save-state={saveState}>{saveState}</span>
        </div>
        <section aria-label="Felder">
          {active
            ? LABELS[active.schemaId].map(([name, label]) => (
                <label key={name} style={{ display: "block" }}>
                  {label}
                  <input value={active[name] ?? ""} onChange={(e) => change(blocks.map((b) => (b.id === activeId ? { ...b, [name]: e.target.value } : b)))} />
                </label>
              ))
            : null}
        </section>
      </aside>
    </div>
  );
}

const slug = location.pathname.replace(/^\//, "");
fetch(`/pages/${slug}.json`)
  .then((r) => r.json())
  .then((page) => createRoot(document.getElementById("root")).render(<Editor initial={page.blocks.de} />));
