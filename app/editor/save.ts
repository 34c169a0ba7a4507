import { useCallback, useEffect, useRef, useState } from "react";
import type { Block } from "~/blocks/types";
import type { Language } from "~/i18n/languages";
import type { EditorStore } from "./editor-store";
import type { EditorTexts } from "./texts";
import { blocksFromDoc } from "./model";
import type { EditorPageMeta, SaveAnswer } from "./types";
import { invalidBlocks } from "./validity";
import { http } from "~/lib/http";
import { log } from "~/lib/log";
import { createValue } from "~/lib/value";

export type SaveState = "saved" | "saving" | "unsaved" | "error";

/** How long after the last change the draft is saved: one rolling draft, not a version per keystroke. */
const DEBOUNCE_MS = 800;

/** Unsaved work kept in this browser (a lost connection, a closed tab) until the server has it. */
const backupKey = (pageId: string) => `praxisnetz-editor-backup:${pageId}`;

interface Backup {
  /** The page version the changes were made on: restored only onto that version. */
  version: number;
  blocks: ReturnType<typeof docsAsBlocks>;
}

const docsAsBlocks = (store: EditorStore) => {
  const { docs } = store.get();
  return { de: blocksFromDoc(docs.de), en: blocksFromDoc(docs.en) };
};

/**
 * Autosave to the page's draft (debounced), publish and discard, with the states the toolbar
 * shows (`data-save-state`): saved, saving, unsaved, error. A save answered 200 is success; any
 * other answer is shown and logged (§8). Without a connection the changes stay in localStorage and
 * are saved when it is back; a newer version on the server is a conflict the editor decides.
 */
export function useSaving(store: EditorStore, initial: EditorPageMeta, t: EditorTexts) {
  const [page, setPage] = useState(initial);
  // The state lives outside React state: a change re-renders the toolbar's label and publish button
  // (useValue), not the whole editor, on the first keystroke after every save.
  const [stateValue] = useState(() => createValue<SaveState>("saved"));
  const setState = stateValue.set;
  const [message, setMessage] = useState<string | null>(null);
  const [conflict, setConflict] = useState<SaveAnswer["conflict"] | null>(null);
  const version = useRef(initial.version);
  const savedRevision = useRef(store.get().revision);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const post = useCallback(
    async (body: Record<string, unknown>): Promise<{ status: number; answer: SaveAnswer } | null> => {
      try {
        // Not repeated on its own: a save that may have arrived would come back as a conflict.
        const res = await http(`/api/editor/pages/${encodeURIComponent(initial.id)}`, { method: "POST", json: body });
        const answer = (await res.json().catch(() => ({ ok: false }))) as SaveAnswer;
        return { status: res.status, answer };
      } catch {
        return null;
      }
    },
    [initial.id],
  );

  const save = useCallback(
    async (force = false): Promise<boolean> => {
      clearTimeout(timer.current);
      if (inFlight.current) await inFlight.current;
      const revision = store.get().revision;
      if (revision === savedRevision.current && !force) {
        setState("saved");
        return true;
      }
      if (invalidBlocks.size) {
        setState("unsaved");
        setMessage(t.invalidFields);
        return false;
      }
      const blocks = docsAsBlocks(store);
      localStorage.setItem(backupKey(initial.id), JSON.stringify({ version: version.current, blocks } satisfies Backup));
      setState("saving");
      const run = (async () => {
        const result = await post({ intent: "save", version: version.current, blocks, ...(force ? { force: true } : {}) });
        if (!result) {
          // No connection: kept here, saved when the browser is online again.
          setState("unsaved");
          setMessage(t.offline);
          return false;
        }
        if (result.status === 200 && result.answer.page) {
          version.current = result.answer.page.version;
          setPage(result.answer.page);
          savedRevision.current = revision;
          setConflict(null);
          setMessage(null);
          const current = store.get().revision === revision;
          if (current) localStorage.removeItem(backupKey(initial.id));
          setState(current ? "saved" : "unsaved");
          return true;
        }
        log.error("Saving the page failed", { status: result.status, message: result.answer.message });
        if (result.status === 409) setConflict(result.answer.conflict ?? { version: -1, lastModifiedBy: "", lastModified: "" });
        setState("error");
        setMessage(result.answer.message ?? t.saveFailed);
        return false;
      })();
      inFlight.current = run;
      try {
        return await run;
      } finally {
        inFlight.current = null;
      }
    },
    [store, post, t, initial.id],
  );

  // Every change: unsaved, and a save once the editor pauses.
  useEffect(() => {
    let seen = store.get().revision;
    return store.subscribe(() => {
      const revision = store.get().revision;
      if (revision === seen) return;
      seen = revision;
      setState((s) => (s === "error" ? s : "unsaved"));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), DEBOUNCE_MS);
    });
  }, [store, save]);

  // Back online: save what waited.
  useEffect(() => {
    const online = () => {
      if (store.get().revision !== savedRevision.current) void save();
    };
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [store, save]);

  // Work a closed tab left unsaved on this very version comes back (and is saved).
  useEffect(() => {
    const raw = localStorage.getItem(backupKey(initial.id));
    if (!raw) return;
    try {
      const backup = JSON.parse(raw) as Backup;
      if (backup.version === initial.version && backup.blocks?.de && backup.blocks?.en) {
        store.dispatch({ type: "replaceDocs", docs: backup.blocks });
        void save();
      } else localStorage.removeItem(backupKey(initial.id));
    } catch {
      localStorage.removeItem(backupKey(initial.id));
    }
  }, [store, initial.id, initial.version, save]);

  // Closing the tab with unsaved changes warns.
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (store.get().revision !== savedRevision.current || inFlight.current) {
        e.preventDefault();
        e.returnValue = t.leaveWarning;
      }
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [store, t]);

  const change = useCallback(
    async (intent: "publish" | "discard") => {
      if (intent === "publish" && !(await save())) return false;
      const result = await post({ intent, version: version.current });
      if (result?.status === 200 && result.answer.page) {
        version.current = result.answer.page.version;
        setPage(result.answer.page);
        setMessage(result.answer.message ?? null);
        return true;
      }
      log.error(`${intent} failed`, { status: result?.status, message: result?.answer.message });
      if (result?.status === 409) setConflict(result.answer.conflict ?? null);
      setMessage(result?.answer.message ?? t.saveFailed);
      return false;
    },
    [post, save, t],
  );

  const dropBackup = useCallback(() => localStorage.removeItem(backupKey(initial.id)), [initial.id]);

  /**
   * A version restored on the server (the history panel): its page state and blocks become the
   * editor's, as saved. The version first, so no save goes out at the old one; unsaved changes made
   * before the restore are dropped (the editor confirmed replacing the draft).
   */
  const adopt = useCallback(
    (next: EditorPageMeta, blocks: Record<Language, Block[]>) => {
      clearTimeout(timer.current);
      version.current = next.version;
      setPage(next);
      store.dispatch({ type: "replaceDocs", docs: blocks });
      savedRevision.current = store.get().revision;
      localStorage.removeItem(backupKey(initial.id));
      setConflict(null);
      setState("saved");
    },
    [store, initial.id],
  );

  return { page, stateValue, message, conflict, save, publish: () => change("publish"), discard: () => change("discard"), dropBackup, savedRevision, adopt };
}
