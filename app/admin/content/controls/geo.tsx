import type { CustomControlProps } from "~/forms/react";
import { JsonControl } from "./json";

/** A map point: by address search or a click on the map. Placeholder until the map lands. */
export function GeoControl(props: CustomControlProps) {
  return <JsonControl {...props} />;
}
