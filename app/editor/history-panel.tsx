import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Block } from "~/blocks/types";
import { LANGUAGES, type Language } from "~/i18n/languages";
import { compareBlocks, sameBlocks, type BlockComparison } from "./compare";
import { useEditor } from "./editor-store";
import { useEnv, type EditorEnv } from "./env";
import { blocksFromDoc } from "./model";
import type { EditorPageMeta, HistoryAnswer, HistoryEntryAnswer, HistoryItem, HistoryListAnswer } from "./types";
import { http } from "~/lib/http";
import { log } from "~/lib/log";

type PageBlocks = Record<Language, Block[]>;
/** What can be compared: an entry of the history by id, or the draft in the editor now. */
type Side = number | "draft";

export interface HistoryPanelProps {
  pageId: string;
  /** The page version the editor works on (`useSaving().page.version`): a restore is made at it, and the list reloads when it moves. */
  version: number;
  /**
   * A restore succeeded: the page's new state (its version moved on) and the restored blocks, which
   * are now the stored draft. The editor takes both over (the version first, then the blocks, as
   * saved), or its next autosave would be a conflict.
   */
  onRestored(page: EditorPageMeta, blocks: PageBlocks): void;
}

const historyUrl = (pageId: string, query = "") => `/api/editor/pages/${encodeURIComponent(pageId)}/history${query}`;

async function getJson<T>(url: string): Promise<{ status: number; body: T | { ok: false; message?: string } } | null> {
  try {
    const res = await http(url);
    return { status: res.status, body: (await res.json().catch(() => ({ ok: false }))) as T };
  } catch {
    return null;
  }
}

/** The start of a block's first text, tags removed, for telling blocks apart in words. */
export function blockSnippet(block: Block, max = 60): string {
  for (const [name, value] of Object.entries(block)) {
    if (name === "id" || name === "schemaId" || typeof value !== "string" || !value.trim() || value.startsWith("/") || /^https?:/.test(value)) continue;
    const plain = value.replace(/<[^>]*>/g, " ").replace(/&nbsp;/g, " ").replace(/\s+/g, " ").trim();
    if (plain) return plain.length > max ? `${plain.slice(0, max)}…` : plain;
  }
  return "";
}

function byId(blocks: readonly Block[], into = new Map<string, Block>()): Map<string, Block> {
  for (const b of blocks) {
    if (!b || typeof b !== "object") continue;
    if (typeof b.id === "string") into.set(b.id, b);
    if (Array.isArray(b.blocks)) byId(b.blocks as Block[], into);
  }
  return into;
}

/**
 * The page's versions (a tab of edit mode): who kept which version when, newest first and paged;
 * a read-only preview of each, restoring one as the draft (after a confirm), and a comparison of two
 * of them — or of one with the draft in the editor now — block by block in plain words. Lives inside
 * the editor's providers (it reads the texts, the block names and the current draft from them).
 */
export function HistoryPanel({ pageId, version, onRestored }: HistoryPanelProps) {
  const env = useEnv();
  const t = env.t.history;
  const when = useMemo(() => new Intl.DateTimeFormat(env.ui === "de" ? "de-DE" : "en-GB", { dateStyle: "medium", timeStyle: "short" }), [env.ui]);
  const [items, setItems] = useState<HistoryItem[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [previewed, setPreviewed] = useState<number | null>(null);
  const [chosen, setChosen] = useState<Side[]>([]);
  const [busy, setBusy] = useState(false);
  /** Entries with their blocks, fetched once each (an entry's blocks never change once it is no longer the rolling draft). */
  const entries = useRef(new Map<number, HistoryEntryAnswer>());
  const [, setLoaded] = useState(0);
  // The editor's documents, followed only while the current draft is being compared (else no re-render per keystroke).
  const draftChosen = chosen.includes("draft");
  const docs = useEditor((s) => (draftChosen ? s.docs : null));

  const loadFirst = useCallback(async () => {
    const result = await getJson<HistoryListAnswer>(historyUrl(pageId));
    if (!result || result.status !== 200 || !result.body.ok) {
      setState("failed");
      setMessage((result?.body as { message?: string } | undefined)?.message ?? t.loadFailed);
      return;
    }
    const first = result.body as HistoryListAnswer;
    // The newest entry may be the rolling draft, changed in place: its blocks are fetched anew.
    for (const item of first.items) if (item.kind === "draft") entries.current.delete(item.id);
    setItems((old) => {
      if (first.next === null) return first.items;
      // Older pages already loaded stay below the fresh first page.
      const oldest = first.items.at(-1)!.id;
      return [...first.items, ...old.filter((i) => i.id < oldest)];
    });
    setNext((old) => (first.next === null ? null : (old ?? first.next)));
    setState("ready");
  }, [pageId, t.loadFailed]);

  // On opening, and whenever the page's version moves (a save, a publication, a restore).
  useEffect(() => {
    void loadFirst();
  }, [loadFirst, version]);

  const loadOlder = async () => {
    if (next === null) return;
    setBusy(true);
    const result = await getJson<HistoryListAnswer>(historyUrl(pageId, `?before=${next}`));
    setBusy(false);
    if (!result || result.status !== 200 || !result.body.ok) {
      setMessage((result?.body as { message?: string } | undefined)?.message ?? t.loadFailed);
      return;
    }
    const page = result.body as HistoryListAnswer;
    setItems((old) => [...old, ...page.items.filter((i) => !old.some((o) => o.id === i.id))]);
    setNext(page.next);
  };

  /** An entry with its blocks (fetched once). */
  const entry = useCallback(
    async (id: number): Promise<HistoryEntryAnswer | null> => {
      const known = entries.current.get(id);
      if (known) return known;
      const result = await getJson<HistoryEntryAnswer>(historyUrl(pageId, `?entry=${id}`));
      if (!result || result.status !== 200 || !result.body.ok) {
        setMessage((result?.body as { message?: string } | undefined)?.message ?? t.loadFailed);
        return null;
      }
      entries.current.set(id, result.body as HistoryEntryAnswer);
      setLoaded((n) => n + 1);
      return result.body as HistoryEntryAnswer;
    },
    [pageId, t.loadFailed],
  );

  // A chosen entry whose blocks were dropped (the rolling draft moved on) is fetched again.
  useEffect(() => {
    for (const side of chosen) if (typeof side === "number" && !entries.current.has(side)) void entry(side);
  }, [chosen, items, entry]);

  const preview = async (id: number) => {
    if (previewed === id) return setPreviewed(null);
    if (await entry(id)) setPreviewed(id);
  };

  const restore = async (item: HistoryItem) => {
    if (!window.confirm(t.restoreConfirm(when.format(new Date(item.at))))) return;
    setBusy(true);
    setMessage(null);
    let result: { status: number; body: HistoryAnswer } | null = null;
    try {
      const res = await http(historyUrl(pageId), { method: "POST", json: { intent: "restore", entry: item.id, version } });
      result = { status: res.status, body: (await res.json().catch(() => ({ ok: false }))) as HistoryAnswer };
    } catch {
      result = null;
    }
    setBusy(false);
    if (result?.status === 200 && result.body.page && result.body.blocks) {
      setMessage(result.body.message ?? t.restored);
      env.announce(result.body.message ?? t.restored);
      onRestored(result.body.page, result.body.blocks);
      return;
    }
    log.error("Restoring a version failed", { status: result?.status, message: result?.body.message });
    setMessage(result?.body.message ?? t.restoreFailed);
  };

  const toggleCompare = (side: Side) => {
    // At most two: choosing a third lets go of the first.
    setChosen((old) => (old.includes(side) ? old.filter((s) => s !== side) : [...old.slice(-1), side]));
  };

  const label = (side: Side) => {
    if (side === "draft") return t.currentDraft;
    const item = items.find((i) => i.id === side);
    return item ? `${t.kinds[item.kind] ?? item.kind}, ${when.format(new Date(item.at))}` : String(side);
  };

  // The comparison: the older side first (the draft in the editor is the newest of all).
  let comparison: { older: Side; newer: Side; a: PageBlocks; b: PageBlocks } | null = null;
  if (chosen.length === 2) {
    const [older, newer] = [...chosen].sort((x, y) => (x === "draft" ? 1 : y === "draft" ? -1 : x - y)) as [Side, Side];
    const blocksOf = (side: Side): PageBlocks | undefined => {
      if (side !== "draft") return entries.current.get(side)?.blocks;
      return docs ? { de: blocksFromDoc(docs.de), en: blocksFromDoc(docs.en) } : undefined;
    };
    const a = blocksOf(older);
    const b = blocksOf(newer);
    if (a && b) comparison = { older, newer, a, b };
  }

  return (
    <div data-history-panel className="space-y-3 text-sm">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-black/70">{t.title}</h2>
      <div role="status" aria-live="polite" className={message ? "rounded bg-[#0f5e63]/10 px-2 py-1" : "sr-only"}>
        {message}
      </div>
      {state === "loading" ? <p className="text-black/70">{t.loading}</p> : null}
      {state === "ready" && !items.length ? <p className="text-black/70">{t.empty}</p> : null}
      {state === "ready" ? (
        <>
          <p className="text-black/70">{t.compareChoose}</p>
          <ul className="space-y-2">
            <li className="flex items-center justify-between rounded border border-dashed border-black/25 px-2 py-1">
              <span className="font-medium">{t.currentDraft}</span>
              <CompareToggle pressed={chosen.includes("draft")} onClick={() => toggleCompare("draft")} text={t.compare} />
            </li>
            {items.map((item) => (
              <li key={item.id} data-history-entry={item.id} className="rounded border border-black/15 px-2 py-1.5">
                <div className="flex flex-wrap items-baseline justify-between gap-x-2">
                  <span className="font-semibold">{t.kinds[item.kind] ?? item.kind}</span>
                  <time dateTime={item.at} className="text-black/70">
                    {when.format(new Date(item.at))}
                  </time>
                </div>
                <div className="text-black/70">{t.by(item.by)}</div>
                <div className="mt-1 flex flex-wrap gap-1">
                  <button type="button" aria-expanded={previewed === item.id} className="rounded border border-black/20 px-2 py-0.5 hover:bg-black/5" onClick={() => void preview(item.id)}>
                    {previewed === item.id ? t.closePreview : t.preview}
                  </button>
                  <button type="button" disabled={busy} className="rounded border border-black/20 px-2 py-0.5 hover:bg-black/5 disabled:opacity-50" onClick={() => void restore(item)}>
                    {t.restore}
                  </button>
                  <CompareToggle pressed={chosen.includes(item.id)} onClick={() => toggleCompare(item.id)} text={t.compare} />
                </div>
                {previewed === item.id && entries.current.get(item.id) ? (
                  <section aria-label={t.previewOf(when.format(new Date(item.at)))} className="mt-2 space-y-2 border-t border-black/10 pt-2">
                    {LANGUAGES.map((l) => (
                      <div key={l}>
                        <h3 className="font-semibold">{env.t.languageName[l]}</h3>
                        <BlockList blocks={entries.current.get(item.id)!.blocks[l]} env={env} />
                      </div>
                    ))}
                  </section>
                ) : null}
              </li>
            ))}
          </ul>
          {next !== null ? (
            <button type="button" disabled={busy} className="w-full rounded border border-black/20 px-2 py-1 hover:bg-black/5 disabled:opacity-50" onClick={() => void loadOlder()}>
              {t.loadOlder}
            </button>
          ) : null}
        </>
      ) : null}
      {comparison ? (
        <section data-history-compare aria-label={t.compare} className="space-y-2 rounded border border-[#0f5e63]/40 p-2">
          <div className="flex items-start justify-between gap-2">
            <h3 className="font-semibold">{t.compareTitle(label(comparison.older), label(comparison.newer))}</h3>
            <button type="button" className="shrink-0 rounded border border-black/20 px-2 py-0.5 hover:bg-black/5" onClick={() => setChosen([])}>
              {t.clearCompare}
            </button>
          </div>
          {LANGUAGES.map((l) => (
            <div key={l}>
              <h4 className="font-medium">{env.t.languageName[l]}</h4>
              <ComparisonWords result={compareBlocks(comparison.a[l], comparison.b[l])} older={comparison.a[l]} newer={comparison.b[l]} env={env} />
            </div>
          ))}
        </section>
      ) : null}
    </div>
  );
}

function CompareToggle({ pressed, onClick, text }: { pressed: boolean; onClick(): void; text: string }) {
  return (
    <button type="button" aria-pressed={pressed} className={`rounded border px-2 py-0.5 ${pressed ? "border-[#0f5e63] bg-[#0f5e63] text-white" : "border-black/20 hover:bg-black/5"}`} onClick={onClick}>
      {text}
    </button>
  );
}

/** A version's blocks, read-only: each block's kind and the start of its first text, sections with their children. */
function BlockList({ blocks, env }: { blocks: readonly Block[]; env: EditorEnv }) {
  if (!blocks.length) return <p className="text-black/70">{env.t.history.noBlocks}</p>;
  return (
    <ul className="space-y-0.5">
      {blocks.map((block, i) => {
        const text = blockSnippet(block, 40);
        return (
          <li key={typeof block.id === "string" ? block.id : i}>
            <span className="font-medium">{env.label(String(block.schemaId))}</span>
            {text ? <span className="text-black/70"> – {text}</span> : null}
            {Array.isArray(block.blocks) && block.blocks.length ? (
              <div className="ml-3 mt-0.5 border-l border-black/15 pl-2">
                <BlockList blocks={block.blocks as Block[]} env={env} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** compareBlocks' result in plain words: one line per added, removed, moved or changed block. */
function ComparisonWords({ result, older, newer, env }: { result: BlockComparison; older: readonly Block[]; newer: readonly Block[]; env: EditorEnv }) {
  const t = env.t.history;
  const before = useMemo(() => byId(older), [older]);
  const after = useMemo(() => byId(newer), [newer]);
  if (sameBlocks(result)) return <p className="text-black/70">{t.noDifferences}</p>;
  const name = (ref: { id: string; schemaId: string }, from: Map<string, Block>) => {
    const block = from.get(ref.id);
    const text = block ? blockSnippet(block, 30) : "";
    const kind = env.label(ref.schemaId);
    return text ? `${kind} „${text}“` : kind;
  };
  const fieldName = (schemaId: string, field: string) => (field === "schemaId" ? t.kindChanged : (env.schemas.get(schemaId)?.fields.find((f) => f.name === field)?.label ?? field));
  const lines: Array<{ key: string; kind: string; text: string }> = [
    ...result.added.map((r) => ({ key: `a-${r.id}`, kind: "added", text: t.added(name(r, after)) })),
    ...result.removed.map((r) => ({ key: `r-${r.id}`, kind: "removed", text: t.removed(name(r, before)) })),
    ...result.moved.map((r) => {
      const section = r.parentId !== r.fromParentId && r.parentId ? after.get(r.parentId) : undefined;
      const text = section ? t.movedInto(name(r, after), name({ id: r.parentId!, schemaId: String(section.schemaId) }, after)) : r.parentId === null && r.fromParentId !== null ? t.movedOut(name(r, after)) : t.moved(name(r, after));
      return { key: `m-${r.id}`, kind: "moved", text };
    }),
    ...result.changed.map((r) => ({ key: `c-${r.id}`, kind: "changed", text: t.changed(name(r, after), r.fields.map((f) => fieldName(r.schemaId, f)).join(", ")) })),
  ];
  return (
    <ul className="list-disc space-y-0.5 pl-5">
      {lines.map((line) => (
        <li key={line.key} data-change={line.kind}>
          {line.text}
        </li>
      ))}
      {result.unchanged.length ? <li className="text-black/70">{t.unchanged(result.unchanged.length)}</li> : null}
    </ul>
  );
}
