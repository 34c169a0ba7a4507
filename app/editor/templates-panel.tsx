import { useCallback, useEffect, useId, useState } from "react";
import type { Block } from "~/blocks/types";
import type { Language } from "~/i18n/languages";
import { editorTexts } from "./texts";
import { http } from "~/lib/http";

/** A template as the list endpoint gives it (GET /api/editor/templates). */
export interface TemplateEntry {
  id: string;
  name: string;
  blockCount: number;
  /** Who saved it, by name or e-mail. */
  createdBy: string;
  createdAt: string;
  /** The signed-in editor's own template, or any for a superuser. */
  canDelete: boolean;
}

const BASE = "/api/editor/templates";

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A JSON request to the templates endpoint; null without a connection. */
async function call(url: string, init: { method?: string; json?: unknown } = {}): Promise<Answer | null> {
  try {
    const res = await http(url, init);
    const body = (await res.json().catch(() => ({}))) as unknown;
    return { status: res.status, body: body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {} };
  } catch {
    return null;
  }
}

const messageOf = (answer: Answer | null, fallback: string) => (answer && typeof answer.body.message === "string" ? answer.body.message : fallback);

/**
 * Templates (a tab of edit mode's side panel): the selected blocks saved under a name, and every
 * saved template with "Insert" and "Delete". The panel knows nothing of the editor's store: it asks
 * `getSelection()` for the selected blocks in page form (with their children) when saving, and
 * hands a template's blocks to `onInsert`, which inserts them at the cursor (the model gives them
 * fresh ids). `selectedCount`, when given, keeps the save button's state current as the selection
 * changes; without it the panel reads `getSelection()` whenever it renders.
 */
export function TemplatesPanel({
  language,
  getSelection,
  onInsert,
  selectedCount,
}: {
  language: Language;
  getSelection: () => Block[];
  onInsert: (blocks: Block[]) => void;
  selectedCount?: number;
}) {
  const t = editorTexts[language];
  const [templates, setTemplates] = useState<TemplateEntry[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  /** The outcome of the last action: `alert` for what went wrong, `status` for what worked. */
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const nameId = useId();
  const selected = selectedCount ?? getSelection().length;

  const load = useCallback(async () => {
    const answer = await call(BASE);
    const list = answer?.status === 200 && Array.isArray(answer.body.templates) ? (answer.body.templates as TemplateEntry[]) : null;
    setLoadFailed(!list);
    if (list) setTemplates(list);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const save = async () => {
    const blocks = getSelection();
    if (!blocks.length) {
      setNotice({ text: t.templateNothingSelected, error: true });
      return;
    }
    setBusy(true);
    const answer = await call(BASE, { method: "POST", json: { name, blocks } });
    setBusy(false);
    if (answer?.status === 201) {
      setNaming(false);
      setName("");
      setNotice({ text: messageOf(answer, t.templateSaved(name.trim())), error: false });
      void load();
    } else setNotice({ text: messageOf(answer, t.failed), error: true });
  };

  const insert = async (template: TemplateEntry) => {
    setBusy(true);
    const answer = await call(`${BASE}/${encodeURIComponent(template.id)}`);
    setBusy(false);
    const blocks = (answer?.body.template as { blocks?: unknown } | undefined)?.blocks;
    if (answer?.status === 200 && Array.isArray(blocks)) {
      onInsert(blocks as Block[]);
      setNotice({ text: t.templateInserted(template.name), error: false });
    } else {
      setNotice({ text: messageOf(answer, t.failed), error: true });
      // Deleted by someone else meanwhile: the list should not offer it any more.
      if (answer?.status === 404) void load();
    }
  };

  const remove = async (template: TemplateEntry) => {
    if (!window.confirm(t.templateDeleteConfirm(template.name))) return;
    setBusy(true);
    const answer = await call(`${BASE}/${encodeURIComponent(template.id)}`, { method: "DELETE" });
    setBusy(false);
    if (answer?.status === 200 || answer?.status === 404) {
      setTemplates((list) => list?.filter((x) => x.id !== template.id) ?? list);
      setNotice(answer.status === 200 ? { text: messageOf(answer, t.templateDeleted(template.name)), error: false } : { text: messageOf(answer, t.templateNotFound), error: true });
    } else setNotice({ text: messageOf(answer, t.failed), error: true });
  };

  const button = "rounded border border-black/20 px-2 py-1 text-sm hover:bg-black/5 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-[#0f5e63]";
  const dates = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
  // An invalid date would make format() throw and take the panel down with it.
  const when = (iso: string) => (Number.isNaN(Date.parse(iso)) ? "" : dates.format(new Date(iso)));
  return (
    <div className="space-y-4" data-templates-panel>
      {naming ? (
        <form
          className="space-y-2 rounded border border-black/15 p-3"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor={nameId} className="block text-sm font-semibold">
            {t.templateName}
          </label>
          <input
            id={nameId}
            className="w-full rounded border border-black/30 px-2 py-1 text-sm"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={80}
            required
            autoFocus
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.stopPropagation();
                setNaming(false);
              }
            }}
          />
          <div className="flex gap-2">
            <button type="submit" className="rounded bg-[#0f5e63] px-3 py-1 text-sm font-semibold text-white disabled:opacity-50" disabled={busy || !name.trim()}>
              {t.templateSave}
            </button>
            <button type="button" className={button} onClick={() => setNaming(false)}>
              {t.templateCancel}
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className={`${button} w-full`}
          disabled={selected === 0}
          onClick={() => {
            setNotice(null);
            setNaming(true);
          }}
          data-template-save
        >
          {t.templateSaveSelection}
        </button>
      )}
      {selected === 0 && !naming ? <p className="text-xs text-black/70">{t.templateNothingSelected}</p> : null}
      <div role="status" className="text-sm">
        {notice && !notice.error ? notice.text : null}
      </div>
      {notice?.error ? (
        <p role="alert" className="text-sm text-[#b3261e]">
          {notice.text}
        </p>
      ) : null}
      {templates === null ? (
        <p className="text-sm text-black/70">{loadFailed ? t.templateLoadFailed : t.templateLoading}</p>
      ) : templates.length === 0 ? (
        <p className="text-sm text-black/70">{t.templateNone}</p>
      ) : (
        <ul className="space-y-2" aria-label={t.templates}>
          {templates.map((template) => (
            <li key={template.id} className="rounded border border-black/15 p-2" data-template-id={template.id}>
              <p className="font-medium break-words">{template.name}</p>
              <p className="text-xs text-black/70">
                {t.templateBlocks(template.blockCount)} · {t.templateBy(template.createdBy, when(template.createdAt))}
              </p>
              <div className="mt-2 flex gap-2">
                <button type="button" className={button} disabled={busy} onClick={() => void insert(template)} aria-label={`${t.templateInsert}: ${template.name}`}>
                  {t.templateInsert}
                </button>
                {template.canDelete ? (
                  <button type="button" className={button} disabled={busy} onClick={() => void remove(template)} aria-label={`${t.templateDelete}: ${template.name}`}>
                    {t.templateDelete}
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
