import type { CustomControlProps } from "~/forms/react";
import { useControlsData } from "./context";
import { parseValue, valueText, WithAdvanced } from "./json";
import { NestedInput, withoutEmpty } from "./nested";
import { controlWords } from "./words";

/**
 * A component (a page's SEO): its schema's fields as a small form of their own. The value keeps
 * the component's schema (`schemaId`), which the store requires, without the editor seeing it.
 */
export function ComponentControl(props: CustomControlProps) {
  const { id, value, onChange, language } = props;
  const w = controlWords[language];
  const { components = {} } = useControlsData();
  const schemaId = (props.props.schemaIds as string[] | undefined)?.[0] ?? "";
  const fields = components[schemaId] ?? [];
  const parsed = parseValue<unknown>(value, {});
  const current = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  const set = (name: string, v: unknown) => {
    const { schemaId: kept, ...rest } = withoutEmpty({ ...current, [name]: v });
    onChange(Object.keys(rest).length ? valueText({ schemaId: typeof kept === "string" ? kept : schemaId, ...rest }) : "");
  };
  return (
    <WithAdvanced {...props}>
      <div className="space-y-3 rounded border border-slate-300 bg-slate-50 p-3" data-component-control>
        {fields.map((f, i) => (
          <NestedInput key={f.name} id={i === 0 ? id : `${id}-${f.name}`} spec={f} value={current[f.name]} none={w.none} onChange={(v) => set(f.name, v)} />
        ))}
      </div>
    </WithAdvanced>
  );
}
ComponentControl.group = true;

/** A list of components (a page's blocks): edited on the page itself, in edit mode; here their count and the way there. */
export function ComponentsControl(props: CustomControlProps) {
  const { id, value, language } = props;
  const w = controlWords[language];
  const { editHref = {} } = useControlsData();
  // The input of a localised field is named `<field>__<language>`: that language's page.
  const href = editHref[/__en$/.test(props.name) ? "en" : "de"];
  const parsed = parseValue<unknown>(value, []);
  const count = Array.isArray(parsed) ? parsed.length : 0;
  return (
    <WithAdvanced {...props}>
      <p className="text-sm text-slate-700">
        {w.blocksCount(count)}. {w.pagesEditor}{" "}
        {href ? (
          <a id={id} href={href} className="font-semibold text-[#0f5e63] underline">
            {w.openEditor}
          </a>
        ) : null}
      </p>
    </WithAdvanced>
  );
}
ComponentsControl.group = true;
