import type { CustomControlProps } from "~/forms/react";
import { WithAdvanced, JsonControl } from "./json";

export function ComponentControl(props: CustomControlProps) {
  return (
    <WithAdvanced {...props}>
      <JsonControl {...props} />
    </WithAdvanced>
  );
}
ComponentControl.group = true;

export function ComponentsControl(props: CustomControlProps) {
  return (
    <WithAdvanced {...props}>
      <JsonControl {...props} />
    </WithAdvanced>
  );
}
