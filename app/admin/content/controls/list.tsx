import type { CustomControlProps } from "~/forms/react";
import { WithAdvanced, JsonControl } from "./json";

export function ListControl(props: CustomControlProps) {
  return (
    <WithAdvanced {...props}>
      <JsonControl {...props} />
    </WithAdvanced>
  );
}
ListControl.group = true;
