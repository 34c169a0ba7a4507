import type { NestedSpec } from "../item-form";
import { useControlsData } from "./context";
import { controlInput } from "./words";

/**
 * One field of a list entry or a component, by its kind: text, long text, a number, yes/no, a choice
 * in words, an icon by name. The value is the entry's own (a string, a number, a boolean).
 */
export function NestedInput({ id, spec, value, onChange, none }: { id: string; spec: NestedSpec; value: unknown; onChange(v: unknown): void; none: string }) {
  const { iconNames = [] } = useControlsData();
  const text = typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
  const required = spec.isRequired || undefined;
  const describedBy = spec.hints ? `${id}-hint` : undefined;
  const common = { id, "aria-required": required, "aria-describedby": describedBy } as const;
  let control;
  if (spec.fieldType === "Boolean") {
    control = <input type="checkbox" {...common} className="size-5" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (spec.fieldType === "Number") {
    control = <input type="number" {...common} className={controlInput} value={text} min={spec.minValue} max={spec.maxValue} onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))} />;
  } else if (spec.options?.length) {
    control = (
      <select {...common} className={controlInput} value={text} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{none}</option>
        {spec.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (spec.tags?.includes("icon") && iconNames.length) {
    control = (
      <select {...common} className={controlInput} value={text} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{none}</option>
        {iconNames.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    );
  } else if (spec.editor === "TextArea" || spec.editor === "Markdown") {
    control = <textarea {...common} className={controlInput} rows={3} value={text} maxLength={spec.maxLength} onChange={(e) => onChange(e.target.value || undefined)} />;
  } else {
    control = <input type="text" {...common} className={controlInput} value={text} maxLength={spec.maxLength} onChange={(e) => onChange(e.target.value || undefined)} />;
  }
  const checkbox = spec.fieldType === "Boolean";
  return (
    <div className={checkbox ? "flex flex-wrap items-center gap-2" : "space-y-1"}>
      {checkbox ? control : null}
      <label htmlFor={id} className="text-sm font-medium">
        {spec.label}
        {spec.isRequired ? <span aria-hidden="true"> *</span> : null}
      </label>
      {checkbox ? null : control}
      {spec.hints ? (
        <p id={`${id}-hint`} className="w-full text-sm text-slate-700">
          {spec.hints}
        </p>
      ) : null}
    </div>
  );
}

/** An entry without its empty values (an emptied input removes the value, as in the item's own fields). */
export function withoutEmpty(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined && v !== null && v !== ""));
}
