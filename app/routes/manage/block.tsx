import { useId } from "react";
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/block";
import { collectionName } from "~/admin/content/field-words";
import { admin, mutate, done, readAdminForm, refused, writer } from "~/admin/admin.server";
import { FIELD_TYPES, schemaFromForm, type FieldProblem } from "~/admin/pages/block-form";
import { fieldsWithoutStart, isBlockSchemaName, KNOWN_BLOCK_TAGS } from "~/admin/pages/block-rules";
import { formVersion } from "~/admin/pages/page-edit";
import { AdminPage, buttonClass, inputClass, SaveNotice, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { FieldProperties, FieldType } from "~/content/types";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/blocks/{blockname}`: a block schema's fields with their properties, editable, and a new
 * field. A block field needs a default value or a known tag (§5): otherwise the editor could not
 * create the block, so such a save is refused with the fields named, and logged.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    back: "Alle Blöcke",
    intro: (tags: string) => `Jedes Feld braucht einen Standardwert (JSON, z. B. "Text", 10, ["asset-placeholder"]) oder eines der bekannten Tags: ${tags}.`,
    fieldType: "Feldtyp",
    fieldTypes: {
      String: "Text",
      Number: "Zahl",
      Boolean: "Ja/Nein",
      DateTime: "Datum und Uhrzeit",
      Json: "Strukturierte Daten (JSON)",
      Tags: "Schlagwörter",
      Assets: "Bilder und Dateien",
      References: "Verweise auf Einträge",
      Geolocation: "Ort auf der Karte",
      Array: "Liste von Einträgen",
      Component: "Baustein",
      Components: "Bausteine",
      RichText: "Formatierter Text",
      UI: "Trennlinie im Formular",
    } as Record<FieldType, string>,
    label: "Bezeichnung",
    editor: "Editor",
    tags: "Tags (durch Komma getrennt)",
    defaultValue: "Standardwert (JSON)",
    allowedValues: "Erlaubte Werte (durch Komma getrennt)",
    minItems: "Mindestanzahl Einträge",
    minLength: "Mindestlänge",
    maxLength: "Höchstlänge",
    isRequired: "Pflichtfeld",
    newField: "Neues Feld",
    newName: "Feldname",
    newNameHelp: "Buchstaben, Ziffern und Bindestriche; leer lassen, um kein Feld hinzuzufügen.",
    nestedTitle: (field: string) => `Felder jedes Eintrags von „${field}“`,
    newNested: "Neues Feld der Einträge",
    saved: "Block-Schema gespeichert.",
    noStart: (names: string[]) => `Ein Block lässt sich nicht anlegen: Feld ${names.join(", ")} hat weder einen Standardwert noch ein bekanntes Tag.`,
    problems: { fieldType: "Unbekannter Feldtyp.", json: "Kein gültiges JSON (Text in Anführungszeichen).", count: "Bitte eine ganze Zahl ab 0." } satisfies Record<FieldProblem, string>,
    formErrors: "Bitte die markierten Eingaben prüfen.",
    badVersion: "Das Schema wurde inzwischen geändert. Bitte neu laden.",
  },
  en: {
    back: "All blocks",
    intro: (tags: string) => `Every field needs a default value (JSON, e.g. "Text", 10, ["asset-placeholder"]) or one of the known tags: ${tags}.`,
    fieldType: "Field type",
    fieldTypes: {
      String: "Text",
      Number: "Number",
      Boolean: "Yes/no",
      DateTime: "Date and time",
      Json: "Structured data (JSON)",
      Tags: "Tags",
      Assets: "Images and files",
      References: "References to items",
      Geolocation: "Place on the map",
      Array: "List of entries",
      Component: "Component",
      Components: "Components",
      RichText: "Formatted text",
      UI: "Separator in the form",
    } as Record<FieldType, string>,
    label: "Label",
    editor: "Editor",
    tags: "Tags (comma-separated)",
    defaultValue: "Default value (JSON)",
    allowedValues: "Allowed values (comma-separated)",
    minItems: "Minimum items",
    minLength: "Minimum length",
    maxLength: "Maximum length",
    isRequired: "Required",
    newField: "New field",
    newName: "Field name",
    newNameHelp: "Letters, digits and hyphens; leave empty to add no field.",
    nestedTitle: (field: string) => `Fields of each entry of “${field}”`,
    newNested: "New field of the entries",
    saved: "Block schema saved.",
    noStart: (names: string[]) => `A block could not be created: field ${names.join(", ")} has neither a default value nor a known tag.`,
    problems: { fieldType: "Unknown field type.", json: "Not valid JSON (text in quotes).", count: "Please enter a whole number from 0." } satisfies Record<FieldProblem, string>,
    formErrors: "Please check the marked inputs.",
    badVersion: "The schema has changed in the meantime. Please reload.",
  },
} satisfies Record<Language, unknown>;

type Text = (typeof texts)[Language];

async function requireBlockSchema(args: Route.LoaderArgs | Route.ActionArgs, services: ReturnType<typeof admin>["services"]) {
  const name = args.params.blockname;
  const schema = isBlockSchemaName(name) ? await services.store.getSchema(name) : undefined;
  if (!schema) throw data(null, { status: 404 });
  return schema;
}

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  const schema = await requireBlockSchema(args, services);
  return { language, schema: {
      name: schema.name,
      label: schema.properties.label ?? "",
      // The heading names the block in the editor's language; the form edits the stored label.
      title: collectionName(schema, language),
      version: schema.version,
      fields: schema.fields.map((f) => ({ name: f.name, properties: f.properties, nested: f.nested?.map((n) => ({ name: n.name, properties: n.properties })) ?? [] })),
    },
  };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, services } = admin(args);
  const text = texts[language];
  const schema = await requireBlockSchema(args, services);
  const form = await readAdminForm(args.request);
  const expectedVersion = formVersion(form.version);
  if (expectedVersion === undefined) return refused(text.badVersion, 400);
  const { input, errors } = schemaFromForm(schema, form);
  if (errors.length) return refused(text.formErrors, 400, Object.fromEntries(errors.map((e) => [e.input, [text.problems[e.problem]]])));
  const without = fieldsWithoutStart(input);
  if (without.length) {
    services.logger.warn({ schema: schema.name, fields: without, user: user.id, requestId: args.context.requestId }, "block field without default value or known tag: block cannot be created");
    return refused(text.noStart(without), 400, Object.fromEntries(without.map((name) => [name, [text.noStart([name])]])));
  }
  // New fields (and new fields of a list's entries) are named in the audit log.
  const added = input.fields.flatMap((f) => {
    const before = schema.fields.find((b) => b.name === f.name);
    if (!before) return [f.name];
    return (f.nested ?? []).filter((n) => !before.nested?.some((b) => b.name === n.name)).map((n) => `${f.name}.${n.name}`);
  });
  return mutate(
    { ...args, user },
    null,
    () => services.store.upsertSchema(input, { ...writer(user, { action: "update-block-schema", detail: added.length ? `added field ${added.join(", ")}` : null }), expectedVersion }),
    () => done(text.saved),
  );
}

/** Text of a property for its input: JSON for the default value, lists comma-separated. */
function shown(properties: FieldProperties, key: keyof FieldProperties): string {
  const value = properties[key];
  if (value === undefined || value === null) return "";
  if (key === "defaultValue") return JSON.stringify(value);
  return Array.isArray(value) ? value.join(", ") : String(value);
}

function PropertyInputs({ prefix, properties, text, errors }: { prefix: string; properties: FieldProperties; text: Text; errors?: Record<string, string[]> }) {
  const id = useId();
  const input = (key: "label" | "editor" | "tags" | "defaultValue" | "allowedValues" | "minItems" | "minLength" | "maxLength", type = "text") => {
    const name = `${prefix}.${key}`;
    const error = errors?.[name]?.[0];
    return (
      <div key={key}>
        <label htmlFor={`${id}-${key}`} className="mb-1 block text-sm font-semibold">
          {text[key]}
        </label>
        <input
          id={`${id}-${key}`}
          name={name}
          type={type}
          min={type === "number" ? 0 : undefined}
          defaultValue={shown(properties, key)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${key}-error` : undefined}
          className={inputClass}
        />
        {error ? (
          <p id={`${id}-${key}-error`} className="mt-1 text-sm text-red-800">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      <div>
        <label htmlFor={`${id}-fieldType`} className="mb-1 block text-sm font-semibold">
          {text.fieldType}
        </label>
        <select id={`${id}-fieldType`} name={`${prefix}.fieldType`} defaultValue={properties.fieldType} className={inputClass}>
          {FIELD_TYPES.map((type) => (
            <option key={type} value={type}>
              {text.fieldTypes[type]}
            </option>
          ))}
        </select>
      </div>
      {input("label")}
      {input("editor")}
      {input("tags")}
      {input("defaultValue")}
      {input("allowedValues")}
      {input("minItems", "number")}
      {input("minLength", "number")}
      {input("maxLength", "number")}
      <label className="flex items-center gap-2 self-end pb-2">
        <input type="checkbox" name={`${prefix}.isRequired`} defaultChecked={properties.isRequired === true} className="h-5 w-5" /> {text.isRequired}
      </label>
    </div>
  );
}

/** A new field: its name (empty adds none) and its properties. */
function NewField({ prefix, legend, text, errors }: { prefix: string; legend: string; text: Text; errors?: Record<string, string[]> }) {
  const nameId = useId();
  return (
    <fieldset className="rounded border border-dashed border-slate-400 bg-white p-4" data-block-field-new={prefix}>
      <legend className="px-1 font-bold">{legend}</legend>
      <div className="mb-3 max-w-sm">
        <label htmlFor={nameId} className="mb-1 block text-sm font-semibold">
          {text.newName}
        </label>
        <input id={nameId} name={`${prefix}.name`} className={inputClass} aria-describedby={`${nameId}-help`} />
        <p id={`${nameId}-help`} className="mt-1 text-sm text-slate-700">
          {text.newNameHelp}
        </p>
      </div>
      <PropertyInputs prefix={prefix} properties={{ fieldType: "String" }} text={text} errors={errors} />
    </fieldset>
  );
}

/** The fields each entry of an Array field has, editable like the block's own, and a new one. */
function NestedFields({ prefix, field, nested, text, errors }: { prefix: string; field: string; nested: { name: string; properties: FieldProperties }[]; text: Text; errors?: Record<string, string[]> }) {
  return (
    <section className="mt-4 space-y-3 border-l-4 border-slate-200 pl-4" data-nested-fields={field}>
      <h2 className="font-semibold">{text.nestedTitle(field)}</h2>
      {nested.map((n, j) => (
        <fieldset key={n.name} className="rounded border border-slate-300 p-3" data-nested-field={n.name}>
          <legend className="px-1 font-mono font-bold">
            {field} › {n.name}
          </legend>
          <PropertyInputs prefix={`${prefix}.${j}`} properties={n.properties} text={text} errors={errors} />
        </fieldset>
      ))}
      <NewField prefix={`${prefix}.new`} legend={text.newNested} text={text} errors={errors} />
    </section>
  );
}

export default function BlockSchema({ loaderData }: Route.ComponentProps) {
  const { language, schema } = loaderData;
  const text = texts[language];
  const { t } = useAdmin();
  const result = useActionData<typeof action>() as { ok: boolean; message: string; errors?: Record<string, string[]> } | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <AdminPage
      title={`${schema.title} (${schema.name})`}
      intro={
        <>
          <p>{text.intro([...KNOWN_BLOCK_TAGS].join(", "))}</p>
          <p>
            <Link className="underline" to="/manage/blocks">
              {text.back}
            </Link>
          </p>
        </>
      }
    >
      <SaveNotice result={result} />
      <Form method="post" className="space-y-4" key={schema.version}>
        <input type="hidden" name="version" value={schema.version} />
        {schema.fields.map((f, i) => (
          <fieldset key={f.name} className={`rounded border bg-white p-4 ${result?.errors?.[f.name] ? "border-red-700" : "border-slate-300"}`} data-block-field={f.name}>
            <legend className="px-1 font-mono font-bold">{f.name}</legend>
            <PropertyInputs prefix={`field.${i}`} properties={f.properties} text={text} errors={result?.errors} />
            {f.properties.fieldType === "Array" ? <NestedFields prefix={`field.${i}.nested`} field={f.name} nested={f.nested} text={text} errors={result?.errors} /> : null}
          </fieldset>
        ))}
        <NewField prefix="new" legend={text.newField} text={text} errors={result?.errors} />
        <button type="submit" className={buttonClass()} disabled={busy}>
          {t.save}
        </button>
      </Form>
    </AdminPage>
  );
}
