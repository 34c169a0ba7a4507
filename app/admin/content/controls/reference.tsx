import { useEffect, useId, useState, type KeyboardEvent } from "react";
import type { CustomControlProps } from "~/forms/react";
import { useControlsData } from "./context";
import { parseValue, valueText, withAdvanced } from "./json";
import { usePagedSearch } from "./paged-search";
import { controlInput, controlWords, smallButton } from "./words";

/** One search result, as GET /api/editor/items/{schema} answers. */
interface Found {
  id: string;
  title: string;
  detail?: string;
  status: string;
}

/** The ids in a control's JSON text (anything else in it is dropped). */
export const idsOf = (value: string): string[] => {
  const parsed = parseValue<unknown>(value, []);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
};

/** Waits this long after the last key before searching. */
const DEBOUNCE_MS = 250;

/**
 * References (a practitioner, a theme): the chosen items by title (and a detail such as the city),
 * each with a remove button, and a search box whose results come from the server, paged ("more"),
 * drafts included. Arrow keys move through the results, Enter takes one; the count is announced.
 * With one item allowed, choosing replaces it.
 */
export const ReferenceControl = withAdvanced(ReferencePicker, false);

function ReferencePicker({ id, value, onChange, onBlur, describedBy, invalid, required, props, language }: CustomControlProps) {
  const data = useControlsData();
  const w = controlWords[language];
  const schemaIds = Array.isArray(props.schemaIds) ? (props.schemaIds as string[]) : [];
  const maxItems = typeof props.maxItems === "number" && props.maxItems > 0 ? props.maxItems : Infinity;
  const ids = idsOf(value);
  const [known, setKnown] = useState<Record<string, { title: string; detail?: string }>>({});
  const [schema, setSchema] = useState(schemaIds[0] ?? "");
  const [q, setQ] = useState("");
  const { found, busy, failed, load, clear } = usePagedSearch<Found>(w.pickFailed);
  const [active, setActive] = useState(-1);
  const base = useId();
  const listId = `${base}-results`;
  const hintId = `${base}-hint`;
  const statusId = `${base}-status`;

  const nameOf = (itemId: string) => known[itemId] ?? data.titles[itemId];

  const search = async (text: string, skip: number) => {
    const items = await load(`/api/editor/items/${encodeURIComponent(schema)}?${new URLSearchParams({ q: text, skip: String(skip) })}`, skip);
    if (!items) return;
    setKnown((k) => ({ ...k, ...Object.fromEntries(items.map((i) => [i.id, { title: i.title, ...(i.detail ? { detail: i.detail } : {}) }])) }));
    if (skip === 0) setActive(-1);
  };

  // Debounced: a search per pause in typing, the older request cancelled.
  useEffect(() => {
    const text = q.trim();
    if (!text || !schema) {
      clear();
      return;
    }
    const timer = setTimeout(() => void search(text, 0), DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, schema]);

  const choose = (item: Found) => {
    setKnown((k) => ({ ...k, [item.id]: { title: item.title, ...(item.detail ? { detail: item.detail } : {}) } }));
    if (maxItems === 1) {
      onChange(valueText([item.id]));
      setQ("");
      clear();
      return;
    }
    if (ids.includes(item.id) || ids.length >= maxItems) return;
    onChange(valueText([...ids, item.id]));
  };
  const remove = (itemId: string) => onChange(valueText(ids.filter((i) => i !== itemId)));

  const items = found?.items ?? [];
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" && items.length) {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, items.length - 1));
    } else if (e.key === "ArrowUp" && items.length) {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter") {
      // Enter in the search never submits the item's form.
      e.preventDefault();
      const item = items[active] ?? (items.length === 1 ? items[0] : undefined);
      if (item) choose(item);
    } else if (e.key === "Escape" && found) {
      e.preventDefault();
      setQ("");
      clear();
    }
  };

  const full = ids.length >= maxItems && maxItems !== 1;
  const label = (itemId: string) => {
    const n = nameOf(itemId);
    return n ? n.title : w.pickUnknown;
  };

  return (
    <div className="space-y-2" data-reference-control>
      {ids.length ? (
        <ul className="space-y-1" aria-label={w.pickChosenList}>
          {ids.map((itemId) => {
            const n = nameOf(itemId);
            return (
              <li key={itemId} className="flex flex-wrap items-center gap-2 rounded border border-slate-300 bg-slate-50 px-3 py-1.5" data-chosen={itemId}>
                <span className="font-medium">{label(itemId)}</span>
                {n?.detail ? <span className="text-sm text-slate-700">{n.detail}</span> : null}
                <button type="button" className={`${smallButton} ml-auto`} onClick={() => remove(itemId)}>
                  <span aria-hidden="true">✕ </span>
                  {w.pickRemove(label(itemId))}
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-700">{w.pickNone}</p>
      )}
      {schemaIds.length > 1 ? (
        <label className="block text-sm">
          {w.pickCollection}{" "}
          <select className={controlInput} value={schema} onChange={(e) => setSchema(e.target.value)}>
            {schemaIds.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <input
        id={id}
        type="search"
        role="combobox"
        autoComplete="off"
        className={controlInput}
        value={q}
        disabled={!schema}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={onKey}
        onFocus={() => {
          // A short collection (themes, colours) is seen without typing: its first page on focus.
          if (!q.trim() && !found && schema) void search("", 0);
        }}
        onBlur={onBlur}
        aria-expanded={!!found && items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 && items[active] ? `${listId}-${active}` : undefined}
        aria-describedby={[hintId, describedBy].filter(Boolean).join(" ")}
        aria-invalid={invalid}
        aria-required={required || undefined}
        data-reference-search
      />
      <p id={hintId} className="text-sm text-slate-700">
        {full || maxItems === 1 ? `${w.pickSearchHint} ${w.pickMax(maxItems)}` : w.pickSearchHint}
      </p>
      <p id={statusId} role="status" aria-live="polite" className="text-sm text-slate-800">
        {busy ? w.pickSearching : failed ? "" : found ? w.pickCount(found.total) : ""}
      </p>
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          {failed}
        </p>
      ) : null}
      {found && items.length ? (
        <ul id={listId} role="listbox" aria-label={w.chooseSearch} className="max-h-80 overflow-auto rounded border border-slate-300 bg-white" data-reference-results>
          {items.map((item, i) => {
            const chosen = ids.includes(item.id);
            return (
              <li
                key={item.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={chosen}
                className={`flex cursor-pointer flex-wrap items-baseline gap-2 px-3 py-2 ${i === active ? "bg-[#e6f0f0] outline-2 outline-[#0f5e63]" : "hover:bg-slate-50"}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(item)}
                onMouseEnter={() => setActive(i)}
                data-result={item.id}
              >
                <span className="font-medium">{item.title}</span>
                {item.detail ? <span className="text-sm text-slate-700">{item.detail}</span> : null}
                {item.status !== "Published" ? <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-950">{w.pickDraft}</span> : null}
                {chosen ? <span className="text-sm text-[#0f5e63]">✓ {w.pickChosen}</span> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {found && items.length < found.total ? (
        <button type="button" className={smallButton} disabled={busy} onClick={() => void search(q.trim(), items.length)} data-reference-more>
          {w.pickMore}
        </button>
      ) : null}
    </div>
  );
}
