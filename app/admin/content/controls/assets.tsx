import type { CustomControlProps } from "~/forms/react";
import { JsonControl } from "./json";

/** Files from the asset library, with upload. Placeholder until the picker lands. */
export function AssetsControl(props: CustomControlProps) {
  return <JsonControl {...props} />;
}
