import { useState, type ReactNode } from "react";
import type { ComponentType } from "react";
import type { CustomControl, CustomControlProps } from "~/forms/react";
import { useControlsData } from "./context";
import { controlInput, controlWords } from "./words";

/** Parses a control's JSON text; `fallback` for empty or broken text (the server refuses broken JSON). */
export function parseValue<T>(text: string, fallback: T): T {
  if (!text.trim()) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A value as the JSON text the form holds; nothing (removes the value) for undefined/null/empty lists. */
export const valueText = (value: unknown): string => (value === undefined || value === null || (Array.isArray(value) && value.length === 0) ? "" : JSON.stringify(value, null, 2));

/** The JSON itself in a textarea: a free JSON field, or any control's "advanced" view. */
export function JsonControl({ id, value, onChange, onBlur, describedBy, invalid, required }: CustomControlProps) {
  return (
    <textarea
      id={id}
      className={`${controlInput} font-mono`}
      rows={8}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
      aria-describedby={describedBy}
      aria-invalid={invalid}
      aria-required={required || undefined}
      spellCheck={false}
    />
  );
}

/**
 * A control with, for superusers, a switch to its JSON ("Erweitert"). Editors never see JSON;
 * superusers see it only on asking, and the same value is edited either way.
 */
export function WithAdvanced(props: CustomControlProps & { children: ReactNode }) {
  const { superuser } = useControlsData();
  const [advanced, setAdvanced] = useState(false);
  const w = controlWords[props.language];
  if (!superuser) return <>{props.children}</>;
  return (
    <div className="space-y-2">
      {advanced ? <JsonControl {...props} /> : props.children}
      <label className="inline-flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={advanced} onChange={(e) => setAdvanced(e.target.checked)} data-advanced-switch />
        {w.advanced}
      </label>
    </div>
  );
}

/** A control made of `Inner` behind the superusers' JSON switch; `group` as CustomControl has it. */
export function withAdvanced(Inner: ComponentType<CustomControlProps>, group = false): CustomControl {
  const Control: CustomControl = (props: CustomControlProps) => (
    <WithAdvanced {...props}>
      <Inner {...props} />
    </WithAdvanced>
  );
  Control.group = group;
  return Control;
}

/** A free JSON field: superusers edit it, editors see that it is set (its JSON means nothing to them). */
export function FreeJson(props: CustomControlProps) {
  const { superuser } = useControlsData();
  const w = controlWords[props.language];
  if (superuser) return <JsonControl {...props} />;
  return (
    <p id={props.id} tabIndex={-1} className="text-sm text-slate-700">
      {props.value.trim() ? w.technicalSet : w.technicalEmpty}
    </p>
  );
}
