import type { CustomControls } from "~/forms/react";
import { AssetsControl } from "./assets";
import { ChoicesControl, TagsControl } from "./choices";
import { ColorControl } from "./color";
import { ComponentControl, ComponentsControl } from "./component";
import { GeoControl } from "./geo";
import { FreeJson } from "./json";
import { ListControl } from "./list";
import { ReferenceControl } from "./reference";

/** The admin item form's controls, by the kind item-form.ts gives a field (FormField.control.kind). */
export const adminControls: CustomControls = {
  reference: ReferenceControl,
  assets: AssetsControl,
  geo: GeoControl,
  list: ListControl,
  component: ComponentControl,
  components: ComponentsControl,
  json: FreeJson,
  color: ColorControl,
  choices: ChoicesControl,
  tags: TagsControl,
};
