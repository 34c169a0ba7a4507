import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { EditModeContext } from "~/blocks/edit-mode";
import { BLOCK_DEFINITIONS } from "~/blocks/registry";
import type { Block, PageBlockData } from "~/blocks/types";
import type { Language } from "~/i18n/languages";
import { own } from "~/lib/input";
import type { ContentPage } from "~/site/content-pages.server";
import { useTextStyle } from "~/site/site-context";
import { CanvasList } from "./canvas";
import { blocksOf, canPaste, CLIPBOARD_EVENT, copySelection, paste } from "./clipboard";
import { animateBlocks, animateNew } from "./motion";
import { insertionPoint } from "./palette";
import { HistoryPanel } from "./history-panel";
import { PresenceNotice } from "./presence";
import { TemplatesPanel } from "./templates-panel";
import { createEditorStore, docOf, EditorStoreContext, useEditor, useEditorStore, type EditorStore } from "./editor-store";
import { EditorEnvContext, useEnv, type EditorEnv, type EditorProbe } from "./env";
import { FieldsPanel } from "./fields";
import { blocksFromDoc, canRedo, canUndo, createState, ROOT } from "./model";
import { Outline } from "./outline";
import { Palette } from "./palette";
import { useSaving } from "./save";
import { useValue } from "~/lib/value";
import { editorTexts } from "./texts";
import type { EditorPayload } from "./types";
import { invalidBlocks } from "./validity";
import { http } from "~/lib/http";
import { log } from "~/lib/log";
import { whenIdle } from "./idle";

const WIDTHS = { phone: 390, tablet: 820, desktop: null } as const;
const PANELS = ["palette", "outline", "templates", "history"] as const;
type Panel = (typeof PANELS)[number];
type Width = keyof typeof WIDTHS;

/** Prepared blocks by id, children included (what the server rendered). */
function byId(blocks: readonly Block[], into = new Map<string, Block>()): Map<string, Block> {
  for (const b of blocks) {
    if (typeof b.id === "string") into.set(b.id, b);
    if (Array.isArray(b.blocks)) byId(b.blocks as Block[], into);
  }
  return into;
}

/**
 * Edit mode (§1, §4, §6): the page's draft on a canvas of the real block components, with the
 * palette and the outline on the left and the active block's fields on the right. Loaded as its own
 * chunk, only for signed-in editors with `?edit=1`; server-rendered like the page, then hydrated.
 */
export default function EditMode({ language, page, blockData, editor, probe }: { language: Language; page: ContentPage; blockData: PageBlockData; editor: EditorPayload; probe?: EditorProbe }) {
  const ui = editor.user.language;
  const t = editorTexts[ui];
  const schemas = useMemo(() => new Map(editor.schemas.map((s) => [s.name, s])), [editor.schemas]);
  const [store] = useState<EditorStore>(() => {
    invalidBlocks.clear();
    const ctx = { isContainer: (schemaId: string) => schemas.get(schemaId)?.container === true, newId: () => crypto.randomUUID() };
    return createEditorStore(createState(editor.blocks, language, ctx), ctx);
  });
  // Announcements go to the live region alone (its own state): saying something re-renders nothing else.
  const [announcer] = useState(() => {
    let listener: ((message: string) => void) | null = null;
    return { say: (message: string) => listener?.(message), listen: (l: typeof listener) => void (listener = l) };
  });
  const [data, setData] = useState(blockData);
  const [initial] = useState(() => ({ prepared: byId(page.blocks), blocks: new Map(Object.values(store.get().docs[language].blocks).map((b) => [b.id, b as unknown])) }));
  const refresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refreshData = useCallback(() => {
    clearTimeout(refresh.current);
    refresh.current = setTimeout(async () => {
      const state = store.get();
      try {
        // A read that changes nothing: safe to ask again.
        const res = await http("/api/editor/block-data", { method: "POST", idempotent: true, json: { language: state.language, blocks: blocksFromDoc(state.docs[state.language]) } });
        if (res.ok) setData((await res.json()) as PageBlockData);
        else log.error("Loading the blocks' data failed", res.status);
      } catch (error) {
        log.error("Loading the blocks' data failed", error);
      }
    }, 300);
  }, [store]);
  const env = useMemo<EditorEnv>(() => {
    const assets = { ...data.assets };
    for (const a of editor.assets) assets[a.id] ??= a;
    return {
      payload: editor,
      schemas,
      ui,
      t,
      data: { ...data, assets },
      prepared: initial.prepared,
      initial: initial.blocks,
      refreshData,
      probe,
      announce: announcer.say,
      label: (schemaId) => editor.palette.find((p) => p.name === schemaId)?.label ?? own(BLOCK_DEFINITIONS, schemaId)?.palette.label[ui] ?? schemas.get(schemaId)?.label ?? schemaId,
    };
  }, [data, editor, schemas, ui, t, initial, refreshData, probe, announcer]);
  return (
    <EditorStoreContext.Provider value={store}>
      <EditorEnvContext.Provider value={env}>
        <EditModeContext.Provider value={true}>
          <EditorShell page={page} />
          <LiveRegion listen={announcer.listen} />
        </EditModeContext.Provider>
      </EditorEnvContext.Provider>
    </EditorStoreContext.Provider>
  );
}

/** The screen reader's live region: what the editor announces (inserted, moved…). */
function LiveRegion({ listen }: { listen(l: ((message: string) => void) | null): void }) {
  const [message, setMessage] = useState("");
  useEffect(() => {
    listen(setMessage);
    return () => listen(null);
  }, [listen]);
  return (
    <div aria-live="polite" role="status" className="sr-only">
      {message}
    </div>
  );
}

function EditorShell({ page }: { page: ContentPage }) {
  const store = useEditorStore();
  const env = useEnv();
  const { t } = env;
  const saving = useSaving(store, env.payload.page, t);
  env.probe?.partRendered?.("shell");
  const [width, setWidth] = useState<Width>("desktop");
  const [panel, setPanel] = useState<Panel>("palette");
  const [notice, setNotice] = useState<string | null>(null);
  const language = useEditor((s) => s.language);
  const rootRef = useRef<HTMLDivElement>(null);
  // Hydrated and listening: said on the element (tests and benchmarks wait for it), without a render.
  useEffect(() => {
    if (rootRef.current) rootRef.current.dataset.editorReady = "1";
  }, []);

  const focusActive = useCallback(() => {
    requestAnimationFrame(() => {
      const active = store.get().active;
      if (active) document.querySelector<HTMLElement>(`[data-block-id="${CSS.escape(active)}"]`)?.focus({ preventScroll: false });
    });
  }, [store]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const target = e.target as HTMLElement;
    // In a field, keys are the field's own (its undo too).
    if (target.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])")) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    const state = store.get();
    const ids = state.selected.length ? [...state.selected] : state.active ? [state.active] : [];
    let handled = true;
    if (mod && key === "z" && !e.shiftKey) store.dispatch({ type: "undo" });
    else if (mod && ((key === "z" && e.shiftKey) || key === "y")) store.dispatch({ type: "redo" });
    else if (mod && key === "s") void saving.save();
    else if (mod && key === "d" && ids.length) {
      store.dispatch({ type: "duplicate", ids });
      animateNew(store.get().selected);
    }
    else if (mod && key === "c" && ids.length) setNotice(`${t.copy}: ${copySelection(store)}`);
    else if (mod && key === "x" && ids.length) {
      copySelection(store);
      store.dispatch({ type: "remove", ids });
    } else if (mod && key === "v") {
      if (!paste(store, env)) setNotice(t.pasteUnknown);
    } else if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown") && ids.length) {
      animateBlocks(ids, () => store.dispatch({ type: "moveBy", ids, delta: e.key === "ArrowUp" ? -1 : 1 }));
      env.announce(e.key === "ArrowUp" ? t.moveUp : t.moveDown);
    } else if ((e.key === "Delete" || e.key === "Backspace") && ids.length) store.dispatch({ type: "remove", ids });
    else if (e.key === "Escape" && state.active) store.dispatch({ type: "select", id: null });
    else handled = false;
    if (handled) {
      e.preventDefault();
      if (e.key !== "Escape") focusActive();
    }
  };

  const other: Language = language === "de" ? "en" : "de";
  const panelName = (p: Panel) => (p === "palette" ? t.palette : p === "outline" ? t.outline : p === "templates" ? t.templates : t.history.title);
  return (
    <div ref={rootRef} data-editor-root className="flex h-screen flex-col bg-white text-[#1f2328]" onKeyDown={onKeyDown}>
      <Toolbar saving={saving} width={width} setWidth={setWidth} other={other} notice={notice} />
      <div className="flex min-h-0 flex-1">
        <section aria-label={panelName(panel)} className="flex w-80 shrink-0 flex-col border-r border-black/15">
          <div role="tablist" aria-label={t.toolbar} className="flex border-b border-black/15">
            {PANELS.map((p) => (
              <button
                key={p}
                type="button"
                role="tab"
                id={`editor-tab-${p}`}
                aria-controls="editor-side-panel"
                aria-selected={panel === p}
                className={`flex-1 px-2 py-2 text-sm font-semibold ${panel === p ? "border-b-2 border-[#0f5e63] text-[#0f5e63]" : "text-black/70"}`}
                onClick={() => setPanel(p)}
              >
                {panelName(p)}
              </button>
            ))}
          </div>
          <div role="tabpanel" id="editor-side-panel" aria-labelledby={`editor-tab-${panel}`} className="min-h-0 flex-1 overflow-auto p-3">
            {panel === "palette" ? <Palette /> : panel === "outline" ? <Outline /> : panel === "templates" ? <Templates /> : <HistoryPanel pageId={saving.page.id} version={saving.page.version} onRestored={saving.adopt} />}
          </div>
        </section>
        <div data-canvas-scroller className="min-w-0 flex-1 overflow-auto bg-[#eceff1] p-4">
          <div data-canvas data-preview={WIDTHS[width] ? width : undefined} lang={language} className="mx-auto bg-white shadow transition-[width] duration-200" style={WIDTHS[width] ? { width: WIDTHS[width] } : undefined}>
            <CanvasPage page={page} />
          </div>
        </div>
        <section aria-label={t.fields} className="w-80 shrink-0 overflow-auto border-l border-black/15 p-4">
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-black/70">{t.fields}</h2>
          <FieldsPanel />
        </section>
      </div>
    </div>
  );
}

/** Sections as reusable templates: the selection saved under a name, inserted on any page. */
const Templates = memo(function Templates() {
  const store = useEditorStore();
  const env = useEnv();
  const selectedCount = useEditor((s) => s.selected.length || (s.active ? 1 : 0));
  return (
    <TemplatesPanel
      language={env.ui}
      selectedCount={selectedCount}
      getSelection={() => {
        const s = store.get();
        return blocksOf(s.docs[s.language], s.selected.length ? s.selected : s.active ? [s.active] : []);
      }}
      onInsert={(blocks) => {
        const { parent, index } = insertionPoint(store, env, blocks.some((b) => env.schemas.get(b.schemaId)?.container));
        store.dispatch({ type: "insert", parent, index, blocks });
        animateNew(store.get().selected);
        env.refreshData();
      }}
    />
  );
});

/** The page frame on the canvas: its theme, background and title (unless a hero opens the page). */
const CanvasPage = memo(function CanvasPage({ page }: { page: ContentPage }) {
  const heading = useTextStyle("heading-1", "text-4xl font-bold");
  const { payload } = useEnv();
  const language = useEditor((s) => s.language);
  const heroFirst = useEditor((s) => {
    const first = docOf(s).children[ROOT]?.[0];
    const block = first ? docOf(s).blocks[first] : undefined;
    return block ? own(BLOCK_DEFINITIONS, block.schemaId)?.ownsPageHeading === true : false;
  });
  return (
    <div className={page.themeClass} style={page.background ? { backgroundColor: page.background } : undefined} data-page={page.id}>
      {heroFirst ? null : (
        <div className="mx-auto max-w-6xl px-4 pt-10">
          <h1 className={heading}>{payload.page.title[language] || payload.page.title.de}</h1>
        </div>
      )}
      <CanvasList parent={ROOT} />
    </div>
  );
});

/** Undo and redo, re-rendered alone when either becomes possible or not (the first edit). */
function UndoRedo({ button }: { button: string }) {
  const store = useEditorStore();
  const { t } = useEnv();
  const undo = useEditor(canUndo);
  const redo = useEditor(canRedo);
  return (
    <>
      <button type="button" className={button} disabled={!undo} onClick={() => store.dispatch({ type: "undo" })} aria-keyshortcuts="Control+Z">
        {t.undo}
      </button>
      <button type="button" className={button} disabled={!redo} onClick={() => store.dispatch({ type: "redo" })} aria-keyshortcuts="Control+Shift+Z">
        {t.redo}
      </button>
    </>
  );
}

/** The save state (`data-save-state`), re-rendered alone when it changes. */
function SaveStateLabel({ saving }: { saving: ReturnType<typeof useSaving> }) {
  const { t } = useEnv();
  const state = useValue(saving.stateValue);
  return (
    <span data-save-state={state} role="status" className={`text-sm ${state === "error" ? "font-semibold text-[#b3261e]" : "text-black/70"}`}>
      {t.saveStates[state]}
    </span>
  );
}

/** Publish: saves first; not while a save is under way. */
function PublishButton({ saving }: { saving: ReturnType<typeof useSaving> }) {
  const { t } = useEnv();
  const busy = useValue(saving.stateValue) === "saving";
  return (
    <button type="button" className="rounded bg-[#0f5e63] px-3 py-1 text-sm font-semibold text-white disabled:opacity-50" onClick={() => void saving.publish()} disabled={busy}>
      {t.publish}
    </button>
  );
}

function Toolbar({ saving, width, setWidth, other, notice }: { saving: ReturnType<typeof useSaving>; width: Width; setWidth(w: Width): void; other: Language; notice: string | null }) {
  const store = useEditorStore();
  const env = useEnv();
  const { t } = env;
  const language = useEditor((s) => s.language);
  const selectedCount = useEditor((s) => s.selected.length);
  const pasteable = usePasteable(env);
  env.probe?.partRendered?.("toolbar");
  const pageState = saving.page.status === "Published" ? (saving.page.newStatus ? "Changed" : "Published") : "Draft";
  const languageLabel = useId();
  const widthLabel = useId();
  const button = "rounded border border-black/20 px-2 py-1 text-sm hover:bg-black/5 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-[#0f5e63]";
  const ids = () => {
    const s = store.get();
    return s.selected.length ? [...s.selected] : s.active ? [s.active] : [];
  };
  return (
    <div className="border-b border-black/15 bg-white">
      <div role="toolbar" aria-label={t.toolbar} className="flex flex-wrap items-center gap-2 px-3 py-2">
        <span className="font-semibold">
          {t.editing}: {saving.page.title[language] || saving.page.title.de}
        </span>
        <span className="rounded bg-black/10 px-2 py-0.5 text-xs font-semibold" data-page-state={pageState} data-page-version={saving.page.version}>
          {t.status[pageState]}
        </span>
        <span id={languageLabel} className="ml-2 text-sm">
          {t.editedLanguage}:
        </span>
        <span role="group" aria-labelledby={languageLabel} className="flex gap-1">
          {(["de", "en"] as const).map((l) => (
            <button key={l} type="button" className={`${button} ${l === language ? "bg-[#0f5e63] text-white hover:bg-[#0f5e63]" : ""}`} aria-pressed={l === language} lang={l} onClick={() => store.dispatch({ type: "setLanguage", language: l })} data-edit-language={l}>
              {t.languageName[l]}
            </button>
          ))}
        </span>
        <span id={widthLabel} className="ml-2 text-sm">
          {t.preview}:
        </span>
        <span role="group" aria-labelledby={widthLabel} className="flex gap-1">
          {(Object.keys(WIDTHS) as Width[]).map((w) => (
            <button key={w} type="button" className={`${button} ${w === width ? "bg-black/10" : ""}`} aria-pressed={w === width} onClick={() => setWidth(w)}>
              {t.widths[w]}
            </button>
          ))}
        </span>
        <span className="ml-auto flex items-center gap-2">
          <UndoRedo button={button} />
          <SaveStateLabel saving={saving} />
          {pageState === "Changed" ? (
            <button
              type="button"
              className={button}
              onClick={async () => {
                if (!window.confirm(t.discardConfirm)) return;
                if (await saving.discard()) {
                  saving.dropBackup();
                  saving.savedRevision.current = store.get().revision;
                  window.location.reload();
                }
              }}
            >
              {t.discard}
            </button>
          ) : null}
          <PublishButton saving={saving} />
          <a className="text-sm underline" href={`${saving.page.path[language]}?preview=1`} target="_blank" rel="noopener">
            {t.previewLink}
          </a>
          <a className="text-sm underline" href={saving.page.path[language]}>
            {t.leave}
          </a>
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-2 border-t border-black/10 px-3 py-1.5 text-sm">
        <button type="button" className={button} onClick={() => copySelection(store)} disabled={selectedCount === 0}>
          {t.copy}
        </button>
        <button
          type="button"
          className={button}
          disabled={selectedCount === 0}
          onClick={() => {
            copySelection(store);
            store.dispatch({ type: "remove", ids: ids() });
          }}
        >
          {t.cut}
        </button>
        <button type="button" className={button} onClick={() => void (paste(store, env) || env.announce(t.pasteUnknown))} disabled={!pasteable}>
          {t.paste}
        </button>
        <button type="button" className={button} disabled={selectedCount === 0} onClick={() => store.dispatch({ type: "duplicate", ids: ids() })}>
          {t.duplicate}
        </button>
        <button type="button" className={button} disabled={selectedCount === 0} onClick={() => store.dispatch({ type: "remove", ids: ids() })}>
          {t.remove}
        </button>
        <button type="button" className={button} disabled={selectedCount === 0} onClick={() => store.dispatch({ type: "copyToLanguage", ids: ids(), to: other })}>
          {t.copyToLanguage(t.languageName[other])}
        </button>
        <button
          type="button"
          className={button}
          onClick={() => {
            if (window.confirm(t.copyPageConfirm(t.languageName[other]))) store.dispatch({ type: "copyToLanguage", ids: "all", to: other });
          }}
        >
          {t.copyPageToLanguage(t.languageName[other])}
        </button>
        {selectedCount > 1 ? <span className="text-black/70">{t.selected(selectedCount)}</span> : null}
        <PresenceNotice pageId={saving.page.id} language={env.ui} />
        {saving.message || notice ? (
          <span role="alert" className="ml-auto text-sm">
            {saving.message ?? notice}
          </span>
        ) : null}
      </div>
      {saving.conflict ? (
        <div role="alertdialog" aria-labelledby="editor-conflict" className="flex flex-wrap items-center gap-3 border-t border-[#b3261e]/40 bg-[#fdecea] px-3 py-2 text-sm">
          <p id="editor-conflict">{t.conflict(saving.conflict.lastModifiedBy || "")}</p>
          <button
            type="button"
            className={button}
            onClick={() => {
              saving.dropBackup();
              saving.savedRevision.current = store.get().revision;
              window.location.reload();
            }}
          >
            {t.conflictReload}
          </button>
          <button type="button" className={button} onClick={() => void saving.save(true)}>
            {t.conflictOverwrite}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Paste is offered only when the clipboard holds blocks this site has: after a copy here or in another tab. */
function usePasteable(env: EditorEnv): boolean {
  const [pasteable, setPasteable] = useState(false);
  useEffect(() => {
    const check = () => setPasteable(canPaste(env));
    const cancel = whenIdle(check);
    window.addEventListener("storage", check);
    window.addEventListener(CLIPBOARD_EVENT, check);
    return () => {
      cancel();
      window.removeEventListener("storage", check);
      window.removeEventListener(CLIPBOARD_EVENT, check);
    };
  }, [env]);
  return pasteable;
}
