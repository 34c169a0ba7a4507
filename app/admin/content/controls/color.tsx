import type { CustomControlProps } from "~/forms/react";
import { controlInput } from "./words";

export function ColorControl({ id, value, onChange, onBlur, describedBy, invalid, required }: CustomControlProps) {
  return (
    <input
      id={id}
      className={controlInput}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
      aria-describedby={describedBy}
      aria-invalid={invalid}
      aria-required={required || undefined}
    />
  );
}
