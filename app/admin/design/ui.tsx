/**
 * Pieces the design screens share in the browser: live checking with the shared form rules, a
 * labelled colour input with its picker, the ±6/12/18 % shade strip of a colour and the delete button.
 */
import { useEffect, useId, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { buttonClass, ConfirmStep, inputClass, SaveNotice } from "~/admin/ui";
import type { AdminResult, Confirmation } from "~/admin/admin.server";
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

/** "#abc" and "#aabbcc" as the six-digit lower-case form a colour picker takes; null for anything else. */
export function pickerValue(hex: string): string | null {
  const value = hex.trim().toLowerCase();
  if (!isHexColor(value)) return null;
  return value.length === 4 ? `#${[...value.slice(1)].map((c) => c + c).join("")}` : value;
}

/**
 * A labelled text input for a hex code with a colour picker beside it and the live "Bad Hex"
 * message. The picker has no name: the hex field is what is posted (and what works without JavaScript).
 */
export function HexField(props: { label: string; name: string; value: string; onChange(value: string): void; error?: string; pickerLabel: string }) {
  const id = useId();
  const picked = pickerValue(props.value);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-semibold">
        {props.label}
      </label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          value={picked ?? "#000000"}
          onChange={(e) => props.onChange(e.target.value)}
          aria-label={`${props.pickerLabel}: ${props.label}`}
          className={`h-10 w-12 shrink-0 cursor-pointer rounded border bg-white p-0.5 ${picked ? "border-slate-500" : "border-dashed border-slate-500"}`}
          data-color-picker={props.name}
        />
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
        // One row of seven in the detail panel (it was two rows there, and a long page).
        <ul className="mt-1 grid grid-cols-7 gap-1">
          {steps.map((step) => {
            const color = step === 0 ? value : shade(value, step);
            return (
              <li key={step} className="min-w-0 text-center text-[0.6875rem] leading-tight">
                <span aria-hidden="true" className="block h-8 rounded border border-slate-300" style={{ backgroundColor: color }} />
                <span className="block">{step > 0 ? `+${step} %` : step < 0 ? `${step} %` : "0"}</span>
                <span className="block font-mono break-all" data-shade={step}>
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

/** The fetcher every delete on a design screen shares: the screen, not the panel that goes, acts on its answer. */
export const DELETE_FETCHER = "design-delete";

/**
 * A superuser's delete button for one item. The server asks first (actions.server, deleteItem): its
 * question appears here with the button that deletes; without JavaScript the page shows it.
 */
export function DeleteForm({ id, intent, label, name, cancelHref }: { id: string; intent: string; label: string; name: string; cancelHref: string }) {
  const fetcher = useFetcher<AdminResult & { confirm?: Confirmation }>({ key: DELETE_FETCHER });
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  return (
    <div className="space-y-2">
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="id" value={id} />
        {/* Not red: this only asks; the red button is in the question (ConfirmStep). */}
        <button type="submit" className={buttonClass("secondary")} disabled={fetcher.state !== "idle"} aria-label={`${label}: ${name}`}>
          {label}
        </button>
      </fetcher.Form>
      <ConfirmStep confirm={answer?.confirm?.fields.id === id ? answer.confirm : undefined} Form={fetcher.Form} cancelHref={cancelHref} />
      {answer && !answer.ok ? <SaveNotice result={answer} /> : null}
    </div>
  );
}

/**
 * Once a delete is done the panel closes: the screen goes to `closeHref` (the grid without a
 * selection) and the answer goes along as the notice (grid.tsx, useCarriedNotice).
 */
export function useCloseAfterDelete(closeHref: string) {
  const fetcher = useFetcher<AdminResult & { confirm?: Confirmation }>({ key: DELETE_FETCHER });
  const navigate = useNavigate();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (answer?.ok && !answer.confirm) void navigate(closeHref, { replace: true, state: { notice: answer } });
  }, [answer]);
}
