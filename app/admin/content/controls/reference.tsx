import type { CustomControlProps } from "~/forms/react";
import { JsonControl } from "./json";

/** References (a practitioner, a theme): a searchable picker. Placeholder until the picker lands. */
export function ReferenceControl(props: CustomControlProps) {
  return <JsonControl {...props} />;
}
