import type { CustomControlProps } from "~/forms/react";
import type { NestedSpec } from "../item-form";
import { parseValue, valueText, WithAdvanced } from "./json";
import { NestedInput, withoutEmpty } from "./nested";
import { controlWords, smallButton } from "./words";

type Row = Record<string, unknown>;

/**
 * A list field (menu entries, third-party scripts, font files): one box per entry with the
 * schema's nested fields, entries added, removed and moved by buttons (announced by their names).
 * The form holds the list as JSON text; nobody sees it but a superuser who asks (WithAdvanced).
 */
export function ListControl(props: CustomControlProps) {
  const { id, value, onChange, language } = props;
  const w = controlWords[language];
  const fields = (props.props.fields as NestedSpec[] | undefined) ?? [];
  const min = typeof props.props.minItems === "number" ? props.props.minItems : 0;
  const max = typeof props.props.maxItems === "number" ? props.props.maxItems : Infinity;
  const parsed = parseValue<unknown>(value, []);
  const rows: Row[] = Array.isArray(parsed) ? parsed.map((r) => (r && typeof r === "object" && !Array.isArray(r) ? (r as Row) : {})) : [];
  const set = (next: Row[]) => onChange(valueText(next.map(withoutEmpty)));
  const move = (i: number, d: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(i, 1);
    next.splice(i + d, 0, row!);
    set(next);
    // Focus follows the moved entry's button, so a keyboard user can keep moving it.
    requestAnimationFrame(() => document.getElementById(`${id}-${i + d}-${d < 0 ? "up" : "down"}`)?.focus());
  };
  const titleOf = (row: Row, i: number) => {
    const first = fields.find((f) => f.fieldType === "String" && typeof row[f.name] === "string" && row[f.name]);
    return first ? `${w.row(i + 1)}: ${String(row[first.name])}` : w.row(i + 1);
  };
  /** The same, shown: the entry's own text marked as content (it is in whatever language it was written). */
  const heading = (row: Row, i: number) => {
    const first = fields.find((f) => f.fieldType === "String" && typeof row[f.name] === "string" && row[f.name]);
    return first ? (
      <>
        {w.row(i + 1)}: <span data-content>{String(row[first.name])}</span>
      </>
    ) : (
      w.row(i + 1)
    );
  };
  return (
    <WithAdvanced {...props}>
      <div className="space-y-3" data-list-control>
        {rows.length === 0 ? <p className="text-sm text-slate-700">{w.noRows}</p> : null}
        <ol className="space-y-3">
          {rows.map((row, i) => (
            <li key={i} className="space-y-2 rounded border border-slate-300 bg-slate-50 p-3" data-list-row>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm font-semibold">{heading(row, i)}</span>
                <span className="flex gap-1">
                  <button type="button" id={`${id}-${i}-up`} className={smallButton} disabled={i === 0} onClick={() => move(i, -1)} aria-label={`${titleOf(row, i)}: ${w.moveUp}`}>
                    ↑
                  </button>
                  <button type="button" id={`${id}-${i}-down`} className={smallButton} disabled={i === rows.length - 1} onClick={() => move(i, 1)} aria-label={`${titleOf(row, i)}: ${w.moveDown}`}>
                    ↓
                  </button>
                  <button type="button" className={smallButton} disabled={rows.length <= min} onClick={() => set(rows.filter((_, j) => j !== i))} aria-label={`${titleOf(row, i)}: ${w.removeRow}`}>
                    {w.removeRow}
                  </button>
                </span>
              </div>
              <div className="grid gap-2 sm:grid-cols-2">
                {fields.map((f) => (
                  <NestedInput key={f.name} id={`${id}-${i}-${f.name}`} spec={f} value={row[f.name]} none={w.none} onChange={(v) => set(rows.map((r, j) => (j === i ? { ...r, [f.name]: v } : r)))} />
                ))}
              </div>
            </li>
          ))}
        </ol>
        <button
          type="button"
          id={id}
          className={smallButton}
          disabled={rows.length >= max}
          onClick={() => {
            set([...rows, {}]);
            requestAnimationFrame(() => document.getElementById(`${id}-${rows.length}-${fields[0]?.name}`)?.focus());
          }}
        >
          + {w.addRow}
        </button>
      </div>
    </WithAdvanced>
  );
}
ListControl.group = true;
