import { useId } from "react";
import type { CustomControlProps } from "~/forms/react";
import { useControlsData } from "./context";
import { controlInput, controlWords } from "./words";

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * A colour: one of the theme's (swatches named by their colour's name), any other by the browser's
 * colour picker, or typed as a code. The stored value stays the hex code the schema asks for.
 */
export function ColorControl({ id, value, onChange, onBlur, describedBy, invalid, required, language }: CustomControlProps) {
  const w = controlWords[language];
  const { colors } = useControlsData();
  const pickerId = useId();
  const same = (hex: string) => value.trim().toLowerCase() === hex.toLowerCase();
  return (
    <div className="space-y-2" data-color-control>
      {colors.length ? (
        <div role="group" aria-label={w.themeColors} className="flex flex-wrap gap-2">
          {colors.map((c) => (
            <button
              key={c.name}
              type="button"
              aria-pressed={same(c.hex)}
              title={`${c.name} (${c.hex})`}
              onClick={() => onChange(c.hex)}
              className={`flex items-center gap-2 rounded border px-2 py-1 text-sm ${same(c.hex) ? "border-slate-900 ring-2 ring-slate-900" : "border-slate-400"}`}
            >
              <span aria-hidden="true" className="size-5 rounded border border-black/20" style={{ backgroundColor: c.hex }} />
              {c.name}
            </button>
          ))}
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex items-center gap-2 text-sm">
          <input id={pickerId} type="color" value={HEX.test(value.trim()) ? value.trim().toLowerCase() : "#ffffff"} onChange={(e) => onChange(e.target.value)} className="h-9 w-12 rounded border border-slate-400" />
          <label htmlFor={pickerId}>{w.otherColor}</label>
        </span>
        <span className="flex items-center gap-2 text-sm">
          <input
            id={id}
            type="text"
            className={`${controlInput} w-32 font-mono`}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onBlur={onBlur}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            aria-required={required || undefined}
            spellCheck={false}
            autoComplete="off"
          />
        </span>
      </div>
    </div>
  );
}
