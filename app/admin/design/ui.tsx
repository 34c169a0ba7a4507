/**
 * Pieces the design screens share in the browser: live checking with the shared form rules, a
 * labelled colour input with its swatch, and the ±6/12/18 % shade strip of a colour.
 */
import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { buttonClass, inputClass, SaveNotice } from "~/admin/ui";
import type { AdminResult } from "~/admin/admin.server";
import type { FormDefinition } from "~/forms/definition";
import type { Language } from "~/i18n/languages";
import { isHexColor, SHADE_STEPS, shade } from "~/theme/shades";
import { formErrors } from "./forms";

/** The form rules' messages for the current values, recomputed as the editor types (empty before hydration). */
export function useFormErrors(definition: FormDefinition, values: Record<string, string>, language: Language): Record<string, string[]> {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const key = JSON.stringify(values);
  useEffect(() => {
    let current = true;
    void formErrors(definition, JSON.parse(key) as Record<string, string>, language).then((found) => current && setErrors(found));
    return () => {
      current = false;
    };
  }, [definition, key, language]);
  return errors;
}

/** A colour sample; shows nothing but a dashed box while the value is not a valid hex code. */
export function Swatch({ hex, size = "h-8 w-8" }: { hex: string; size?: string }) {
  const valid = isHexColor(hex.trim());
  return (
    <span
      aria-hidden="true"
      className={`inline-block shrink-0 rounded border ${size} ${valid ? "border-slate-500" : "border-dashed border-slate-400 bg-white"}`}
      style={valid ? { backgroundColor: hex.trim() } : undefined}
    />
  );
}

/** A labelled text input for a hex code, its swatch and the live "Bad Hex" message. */
export function HexField(props: { label: string; name: string; value: string; onChange(value: string): void; error?: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-semibold">
        {props.label}
      </label>
      <div className="flex items-center gap-2">
        <Swatch hex={props.value} />
        <input
          id={id}
          name={props.name}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          maxLength={20}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${id}-error` : undefined}
          className={`${inputClass} font-mono`}
        />
      </div>
      {props.error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-red-800" data-field-error={props.name}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled plain text input whose value the screen keeps (for live previews). */
export function LiveTextField(props: { label: string; name: string; value: string; onChange(value: string): void; error?: string; mono?: boolean; help?: string }) {
  const id = useId();
  const described = props.error ? `${id}-error` : props.help ? `${id}-help` : undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-semibold">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        className={`${inputClass} ${props.mono ? "font-mono" : ""}`}
      />
      {props.error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-red-800" data-field-error={props.name}>
          {props.error}
        </p>
      ) : props.help ? (
        <p id={`${id}-help`} className="mt-1 text-sm text-slate-700">
          {props.help}
        </p>
      ) : null}
    </div>
  );
}

/** The colour and its shades, darkest to lightest (§9: ±6, 12 and 18 % lightness). */
export function ShadeStrip({ label, hex, badHex }: { label: string; hex: string; badHex: string }) {
  const value = hex.trim();
  const steps = [...SHADE_STEPS.filter((s) => s < 0), 0, ...SHADE_STEPS.filter((s) => s > 0)];
  return (
    <div data-shades={label}>
      <p className="text-sm font-semibold">{label}</p>
      {isHexColor(value) ? (
        <ul className="mt-1 flex flex-wrap gap-1">
          {steps.map((step) => {
            const color = step === 0 ? value : shade(value, step);
            return (
              <li key={step} className="w-16 text-center text-xs">
                <span aria-hidden="true" className="block h-8 rounded border border-slate-300" style={{ backgroundColor: color }} />
                <span className="block">{step > 0 ? `+${step} %` : step < 0 ? `${step} %` : "0"}</span>
                <span className="block font-mono" data-shade={step}>
                  {color}
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-red-800">{badHex}</p>
      )}
    </div>
  );
}

/** A superuser's delete button for one item, asking before it posts. */
export function DeleteForm({ id, intent, label, name }: { id: string; intent: string; label: string; name: string }) {
  const fetcher = useFetcher<AdminResult>();
  return (
    <fetcher.Form method="post" className="space-y-2" onSubmit={(e) => !confirm(`${label}: ${name}?`) && e.preventDefault()}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={buttonClass("danger")} disabled={fetcher.state !== "idle"} aria-label={`${label}: ${name}`}>
        {label}
      </button>
      {fetcher.data && !fetcher.data.ok ? <SaveNotice result={fetcher.data} /> : null}
    </fetcher.Form>
  );
}
