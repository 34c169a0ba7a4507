import { useState } from "react";
import type { CustomControlProps } from "~/forms/react";
import { controlInput, controlWords, smallButton } from "./words";

/** The form holds a list of words as "a, b" (item-form.ts splits it on save). */
const split = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Several choices from a known list (a practitioner's languages, a font's uses), by name, with a
 * filter when the list is long. Stored as the list's codes.
 */
export function ChoicesControl({ id, value, onChange, onBlur, describedBy, props, language }: CustomControlProps) {
  const w = controlWords[language];
  const options = (props.options as Array<{ value: string; label: string }> | undefined) ?? [];
  const chosen = split(value);
  const [filter, setFilter] = useState("");
  const toggle = (code: string, on: boolean) => onChange((on ? [...chosen, code] : chosen.filter((c) => c !== code)).join(", "));
  const needle = filter.trim().toLowerCase();
  const shown = options.filter((o) => !needle || o.label.toLowerCase().includes(needle) || chosen.includes(o.value));
  const unknown = chosen.filter((c) => !options.some((o) => o.value === c));
  return (
    <div className="space-y-2" data-choices-control>
      {options.length > 12 ? <input type="search" id={id} className={controlInput} value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={w.chooseSearch} aria-label={w.chooseSearch} aria-describedby={describedBy} autoComplete="off" /> : null}
      <div className="grid max-h-64 grid-cols-2 gap-x-4 gap-y-1 overflow-auto rounded border border-slate-300 p-2 sm:grid-cols-3" tabIndex={-1}>
        {[...unknown.map((c) => ({ value: c, label: c })), ...shown].map((o, i) => (
          <label key={o.value} className="flex items-center gap-2 text-sm">
            <input type="checkbox" id={options.length <= 12 && i === 0 ? id : undefined} checked={chosen.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} onBlur={onBlur} />
            {o.label}
          </label>
        ))}
        {shown.length === 0 && unknown.length === 0 ? <p className="text-sm text-slate-700">{w.nothingFound}</p> : null}
      </div>
    </div>
  );
}
ChoicesControl.group = true;

/** Free words (a practitioner's websites): chips with a remove button, a box to add one (Enter adds). */
export function TagsControl({ id, value, onChange, onBlur, describedBy, invalid, required, language }: CustomControlProps) {
  const w = controlWords[language];
  const tags = split(value);
  const [draft, setDraft] = useState("");
  const add = () => {
    const words = split(draft).filter((t) => !tags.includes(t));
    if (words.length) onChange([...tags, ...words].join(", "));
    setDraft("");
  };
  return (
    <div className="space-y-2" data-tags-control>
      {tags.length ? (
        <ul className="flex flex-wrap gap-2">
          {tags.map((t) => (
            <li key={t} className="flex items-center gap-1 rounded-full border border-slate-400 bg-slate-50 py-0.5 pr-1 pl-3 text-sm">
              {t}
              <button type="button" className="rounded-full px-2 hover:bg-slate-200" aria-label={w.removeTag(t)} onClick={() => onChange(tags.filter((x) => x !== t).join(", "))}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex gap-2">
        <input
          id={id}
          type="text"
          className={controlInput}
          value={draft}
          placeholder={w.newTag}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
          onBlur={() => {
            add();
            onBlur();
          }}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          aria-required={required || undefined}
          autoComplete="off"
        />
        <button type="button" className={smallButton} onClick={add}>
          {w.addTag}
        </button>
      </div>
    </div>
  );
}
