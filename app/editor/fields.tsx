import { memo, lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { SchemaField } from "~/content/types";
import { formFieldsFromSchema } from "~/forms/from-schema";
import type { FormDefinition } from "~/forms/definition";
import { useSite } from "~/site/site-context";
import { docOf, useEditor, useEditorStore } from "./editor-store";
import { useEnv } from "./env";
import { newEntry, PLACEHOLDER_IMAGE } from "./new-block";
import type { EditorField, EditorPayload } from "./types";
import { optionLabel } from "./field-labels";
import { invalidBlocks } from "./validity";
import { http } from "~/lib/http";
import { log } from "~/lib/log";

/** The rich-text editor (Lexical): its own chunk, loaded when a rich-text field is first shown. */
const RichTextField = lazy(() => import("./fields/rich-text-field").then((m) => ({ default: m.RichTextField })));

const input = "w-full rounded border border-black/30 bg-white px-2 py-1.5 text-sm focus:outline-2 focus:outline-[#0f5e63]";

/** A schema field as the forms engine reads it (§5: the same rules as every generated form). */
function asSchemaField(f: EditorField): SchemaField {
  const { name, label, nested: _nested, ...properties } = f;
  return { fieldId: 0, name, partitioning: "invariant", isHidden: false, isLocked: false, isDisabled: false, properties: { ...properties, label } as SchemaField["properties"] } as SchemaField;
}

/**
 * The fields panel: the active block's fields as a form made from its schema (§4, §5), with the
 * forms engine's rules and messages in the editor's language. Every change is one model action;
 * typing a word is one undo step (the model joins keystrokes in one field).
 */
export const FieldsPanel = memo(function FieldsPanel() {
  const active = useEditor((s) => s.active);
  const block = useEditor((s) => (s.active ? docOf(s).blocks[s.active] : undefined));
  const env = useEnv();
  const schema = block ? env.schemas.get(block.schemaId) : undefined;
  if (!block || !schema || !active) return <p className="text-sm text-black/70">{env.t.noBlock}</p>;
  return <BlockFields key={active} id={active} />;
});

const NO_FIELDS: readonly EditorField[] = [];
const editable = new WeakMap<object, readonly EditorField[]>();
/** A kind's fields the panel edits (a container's blocks are on the canvas), the same array each time. */
function editableFields(schema: { fields: readonly EditorField[]; container?: boolean }): readonly EditorField[] {
  let fields = editable.get(schema);
  if (!fields) editable.set(schema, (fields = schema.fields.filter((f) => !(schema.container && f.name === "blocks"))));
  return fields;
}

function BlockFields({ id }: { id: string }) {
  const block = useEditor((s) => docOf(s).blocks[id]);
  const store = useEditorStore();
  const env = useEnv();
  const schema = block ? env.schemas.get(block.schemaId) : undefined;
  const fields = schema ? editableFields(schema) : NO_FIELDS;
  const errors = useFieldErrors(id, fields, block?.fields ?? {});
  // The same function while the block is the same: a field whose value and messages did not
  // change is not rendered again when another one is typed in.
  const { refreshData } = env;
  const set = useCallback(
    (name: string, value: unknown) => {
      store.dispatch({ type: "setField", id, field: name, value });
      // What the block shows may come from the server (a practitioner, an image, a list's length).
      const type = fields.find((f) => f.name === name)?.fieldType;
      if (type === "References" || type === "Assets" || name === "limit") refreshData();
    },
    [store, id, fields, refreshData],
  );
  if (!block || !schema) return null;
  return (
    <form className="space-y-4" onSubmit={(e) => e.preventDefault()} noValidate aria-label={env.label(block.schemaId)}>
      <h3 className="font-semibold">{env.label(block.schemaId)}</h3>
      {fields.map((field) => (
        <BlockField key={field.name} blockId={id} field={field} value={block.fields[field.name]} set={set} errors={errors[field.name]} />
      ))}
    </form>
  );
}

/**
 * One field of the active block, rendered again only when its own value or messages change. A
 * keystroke then updates one input: React re-applies an input's attributes (name, type, value)
 * whenever it renders it, and each of those invalidates the input's style for the next frame.
 */
const BlockField = memo(function BlockField({ blockId, field, value, set, errors }: { blockId: string; field: EditorField; value: unknown; set(name: string, value: unknown): void; errors?: string[] }) {
  const onChange = useCallback((v: unknown) => set(field.name, v), [set, field.name]);
  return <FieldControl blockId={blockId} field={field} value={value} onChange={onChange} errors={errors} />;
});

/** Whether two sets of field messages say the same (so the panel keeps the ones it shows). */
function sameErrors(a: Record<string, string[]>, b: Record<string, string[]>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    return !!x && !!y && x.length === y.length && x.every((m, i) => m === y[i]);
  });
}

/** Typing pauses this long before the fields are checked; autosave waits longer (800 ms). */
const CHECK_AFTER_MS = 150;

/**
 * The forms engine's definition for a kind of block's fields, one per kind (not per block): the
 * engine keeps its checking trees per definition, so every block of a kind shares them.
 */
const definitions = new WeakMap<readonly EditorField[], FormDefinition>();
function checkDefinition(fields: readonly EditorField[]): FormDefinition {
  let definition = definitions.get(fields);
  if (!definition) definitions.set(fields, (definition = { id: "editor-block", fields: formFieldsFromSchema(fields.map(asSchemaField)) }));
  return definition;
}

/**
 * The latest check of each block still under way (numbers from one counter): an earlier check
 * finishing later is ignored. An entry goes once its check has answered, so the map holds only
 * checks in flight, however many blocks a long session touches.
 */
const checks = new Map<string, number>();
let lastCheck = 0;

/** The forms engine's messages for the block's simple fields, checked after each change. */
function useFieldErrors(id: string, fields: readonly EditorField[], values: Readonly<Record<string, unknown>>): Record<string, string[]> {
  const { ui } = useEnv();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const definition = useMemo(() => checkDefinition(fields), [fields]);
  // Another block chosen before typing paused: the check still runs, so autosave knows.
  const waiting = useRef<(() => void) | null>(null);
  useEffect(() => () => waiting.current?.(), []);
  useEffect(() => {
    let current = true;
    const checked: Record<string, unknown> = {};
    for (const f of definition.fields) {
      const v = values[f.name];
      checked[f.name] = v === undefined || v === null ? (f.type === "checkbox" ? false : "") : typeof v === "number" ? String(v) : v;
    }
    // Fields no single input holds (references, images, lists): their required rule, with the engine's message.
    const required = fields.filter((f) => f.isRequired && !definition.fields.some((d) => d.name === f.name));
    const requiredCheck = { id: `${definition.id}-required`, fields: required.map((f) => ({ name: f.name, type: "text" as const, label: f.label, validation: "required" })) };
    const filled = Object.fromEntries(required.map((f) => [f.name, Array.isArray(values[f.name]) ? ((values[f.name] as unknown[]).length ? "x" : "") : values[f.name] ? "x" : ""]));
    // The forms engine loads with the first fields shown, not with edit mode. It checks once typing
    // pauses, in a task of its own: a keystroke's change reaches the screen without waiting for it
    // (autosave waits longer, see save.ts). Of several checks of one block, the latest decides.
    const check = (show: boolean) => {
      const seq = ++lastCheck;
      checks.set(id, seq);
      void import("~/forms/engine").then(({ validateSubmission }) => Promise.all([validateSubmission(definition, checked, ui), required.length ? validateSubmission(requiredCheck, filled, ui) : null])).then(([main, extra]) => {
        if (checks.get(id) !== seq) return;
        checks.delete(id);
        const result = { valid: main.valid && (extra?.valid ?? true), errors: { ...main.errors, ...(extra?.errors ?? {}) } };
        if (show && current) setErrors((shown) => (sameErrors(shown, result.errors) ? shown : result.errors));
        if (result.valid) invalidBlocks.delete(id);
        else invalidBlocks.add(id);
      });
    };
    waiting.current = () => check(false);
    const timer = setTimeout(() => {
      waiting.current = null;
      check(true);
    }, CHECK_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [definition, values, ui, id, fields]);
  return errors;
}

function FieldControl({ blockId, field, value, onChange, errors }: { blockId: string; field: EditorField; value: unknown; onChange(v: unknown): void; errors?: string[] }) {
  const id = `f-${blockId}-${field.name}`;
  const env = useEnv();
  const { iconNames } = useSite();
  const messageId = `${id}-messages`;
  const described = [errors?.length ? messageId : "", field.hints ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, "aria-invalid": errors?.length ? true : undefined, "aria-describedby": described, "aria-required": field.isRequired ? true : undefined } as const;
  const text = typeof value === "string" ? value : "";
  let control: React.ReactNode;
  const tags = field.tags ?? [];
  if (field.fieldType === "Boolean") {
    control = <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} className="size-4" />;
  } else if (field.fieldType === "Number") {
    control = <input type="number" {...common} className={input} value={typeof value === "number" ? value : ""} min={field.minValue} max={field.maxValue} onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))} />;
  } else if (field.fieldType === "String" && (field.allowedValues?.length || field.editor === "Dropdown")) {
    control = (
      <select {...common} className={input} value={text} onChange={(e) => onChange(e.target.value)}>
        {(field.allowedValues ?? []).map((v) => (
          <option key={String(v)} value={String(v)}>
            {optionLabel(String(v), env.ui)}
          </option>
        ))}
      </select>
    );
  } else if (field.fieldType === "String" && (field.editor === "Color" || tags.includes("color"))) {
    control = <ColorField common={common} value={text} onChange={onChange} />;
  } else if (field.fieldType === "String" && tags.includes("icon")) {
    control = <IconSelect common={common} value={text} names={iconNames} onChange={onChange} />;
  } else if (field.fieldType === "String" && (field.editor === "Html" || field.editor === "RichText")) {
    control = (
      <Suspense fallback={<textarea {...common} className={input} rows={6} value={text} readOnly />}>
        <RichTextField id={id} label={field.label} value={text} onChange={onChange} language={env.ui} describedBy={described} />
      </Suspense>
    );
  } else if (field.fieldType === "String" && (field.editor === "TextArea" || field.editor === "Markdown")) {
    control = <textarea {...common} className={input} rows={4} value={text} onChange={(e) => onChange(e.target.value)} />;
  } else if (field.fieldType === "String" && tags.includes("link")) {
    control = <LinkInput common={common} value={text} onChange={onChange} />;
  } else if (field.fieldType === "String" || field.fieldType === "DateTime") {
    control = <input type="text" {...common} className={input} value={text} maxLength={field.maxLength} onChange={(e) => onChange(e.target.value)} />;
  } else if (field.fieldType === "Assets") {
    control = <ImagePicker common={common} value={value} onChange={onChange} />;
  } else if (field.fieldType === "Geolocation") {
    return <GeoFields id={id} field={field} value={value} onChange={onChange} />;
  } else if (field.fieldType === "Array") {
    return <ListField id={id} field={field} value={value} onChange={onChange} errors={errors} />;
  } else if (field.fieldType === "References") {
    control = <ReferencePicker common={common} field={field} value={value} onChange={onChange} />;
  } else {
    return null;
  }
  const checkbox = field.fieldType === "Boolean";
  return (
    <div className={checkbox ? "flex flex-wrap items-center gap-2" : "space-y-1"}>
      {/* The accessible name is the label alone (a contract tools rely on); "required" is said by aria-required. */}
      <span className={`flex gap-1 text-sm font-medium ${checkbox ? "order-2" : ""}`}>
        {field.editor === "Html" || field.editor === "RichText" ? <span id={`${id}-label`}>{field.label}</span> : <label htmlFor={id}>{field.label}</label>}
        {field.isRequired ? <span aria-hidden="true">*</span> : null}
      </span>
      {control}
      {field.hints ? (
        <p id={`${id}-hint`} className="w-full text-xs text-black/70">
          {field.hints}
        </p>
      ) : null}
      <FieldMessages id={messageId} errors={errors} />
    </div>
  );
}

function FieldMessages({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="w-full text-sm text-[#b3261e]" aria-live="polite">
      {errors.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

type Common = { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string; "aria-required"?: boolean };

function IconSelect({ common, value, names, onChange }: { common: Common; value: string; names: readonly string[]; onChange(v: string): void }) {
  const { t } = useEnv();
  return (
    <select {...common} className={input} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t.none}</option>
      {[...names].sort().map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </select>
  );
}

/** A link: any page of the site from the list (by title), or an address typed in. */
function LinkInput({ common, value, onChange }: { common: Common; value: string; onChange(v: string): void }) {
  const { payload } = useEnv();
  const language = useEditor((s) => s.language);
  const listId = useId();
  return (
    <>
      <input type="text" {...common} list={listId} className={input} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" />
      <datalist id={listId}>
        {payload.links.map((l) => (
          <option key={l.id} value={l.path[language]}>
            {l.title[language]}
          </option>
        ))}
      </datalist>
    </>
  );
}

/** An image from the asset library, or a new one uploaded here (it joins the library and is chosen). */
function ImagePicker({ common, value, onChange }: { common: Common; value: unknown; onChange(v: unknown): void }) {
  const { payload, t } = useEnv();
  const [added, setAdded] = useState<EditorPayload["assets"]>([]);
  const [status, setStatus] = useState<{ busy: boolean; message: string | null; failed: boolean }>({ busy: false, message: null, failed: false });
  const uploadId = useId();
  const library = useMemo(() => [...added, ...payload.assets.filter((a) => !added.some((n) => n.id === a.id))], [added, payload.assets]);
  const current = Array.isArray(value) && typeof value[0] === "string" ? value[0] : "";
  const chosen = library.find((a) => a.id === current);
  const upload = async (file: File) => {
    setStatus({ busy: true, message: t.uploading, failed: false });
    try {
      const form = new FormData();
      form.append("file", file, file.name);
      const res = await http(`/api/squidex/api/apps/${encodeURIComponent(payload.appName)}/assets`, { method: "POST", body: form });
      if (res.status !== 200 && res.status !== 201) throw new Error(`upload answered ${res.status}`);
      const a = (await res.json()) as { id: string; slug: string; fileName: string; mimeType: string; pixelWidth?: number; pixelHeight?: number };
      setAdded((list) => [{ id: a.id, fileName: a.fileName, url: `/api/assets/${encodeURIComponent(a.id)}/${encodeURIComponent(a.slug)}`, mimeType: a.mimeType, width: a.pixelWidth, height: a.pixelHeight }, ...list]);
      onChange([a.id]);
      setStatus({ busy: false, message: t.uploaded(a.fileName), failed: false });
    } catch (error) {
      // §8: anything but 200/201 is logged, and the editor is told in plain words.
      log.error("Uploading an image failed", error);
      setStatus({ busy: false, message: t.uploadFailed, failed: true });
    }
  };
  return (
    <div className="space-y-2">
      <select {...common} className={input} value={current} onChange={(e) => onChange(e.target.value ? [e.target.value] : [])}>
        <option value="">{t.none}</option>
        {current === PLACEHOLDER_IMAGE && !chosen ? <option value={PLACEHOLDER_IMAGE}>{t.placeholderImage}</option> : null}
        {library.map((a) => (
          <option key={a.id} value={a.id}>
            {a.fileName}
          </option>
        ))}
      </select>
      {chosen ? <img src={chosen.mimeType.includes("svg") ? chosen.url : `${chosen.url}?width=480`} alt="" className="max-h-32 rounded border border-black/10" /> : null}
      <div>
        <label htmlFor={uploadId} className="inline-block cursor-pointer rounded border border-[#0f5e63] px-3 py-1 text-sm text-[#0f5e63] focus-within:outline-2 focus-within:outline-[#0f5e63]">
          {t.upload}
          <input
            id={uploadId}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/avif,image/gif,image/svg+xml"
            className="sr-only"
            disabled={status.busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void upload(file);
            }}
          />
        </label>
        {status.message ? (
          <p role={status.failed ? "alert" : "status"} className={`mt-1 text-sm ${status.failed ? "text-[#b3261e]" : "text-black/70"}`} data-upload-status>
            {status.message}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** A colour: one of the theme's (swatches), any other, or none. */
function ColorField({ common, value, onChange }: { common: Common; value: string; onChange(v: string): void }) {
  const { payload, t } = useEnv();
  return (
    <div className="space-y-2">
      <div role="group" aria-label={t.themeColors} className="flex flex-wrap gap-1">
        <button type="button" aria-pressed={value === ""} onClick={() => onChange("")} className={`rounded border px-2 py-1 text-xs ${value === "" ? "border-[#0f5e63] ring-2 ring-[#0f5e63]" : "border-black/30"}`}>
          {t.noColor}
        </button>
        {payload.colors.map((c) => (
          <button
            key={c.name}
            type="button"
            aria-pressed={value.toLowerCase() === c.hexcode.toLowerCase()}
            aria-label={c.name}
            title={`${c.name} (${c.hexcode})`}
            onClick={() => onChange(c.hexcode)}
            className={`size-7 rounded border ${value.toLowerCase() === c.hexcode.toLowerCase() ? "border-[#0f5e63] ring-2 ring-[#0f5e63]" : "border-black/30"}`}
            style={{ backgroundColor: c.hexcode }}
          />
        ))}
      </div>
      <span className="flex items-center gap-2 text-xs">
        <input type="color" {...common} value={/^#[0-9a-f]{6}$/i.test(value) ? value : "#ffffff"} onChange={(e) => onChange(e.target.value)} className="h-7 w-10 rounded border border-black/30" />
        {t.otherColor}
      </span>
    </div>
  );
}

function GeoFields({ id, field, value, onChange }: { id: string; field: EditorField; value: unknown; onChange(v: unknown): void }) {
  const { t } = useEnv();
  const point = (value && typeof value === "object" ? value : {}) as { latitude?: number; longitude?: number };
  const set = (key: "latitude" | "longitude", raw: string) => onChange({ ...point, [key]: raw === "" ? undefined : Number(raw) });
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium">{field.label}</legend>
      <div className="grid grid-cols-2 gap-2">
        <label className="text-xs">
          {t.latitude}
          <input id={`${id}-lat`} type="number" step="any" min={-90} max={90} className={input} value={point.latitude ?? ""} onChange={(e) => set("latitude", e.target.value)} />
        </label>
        <label className="text-xs">
          {t.longitude}
          <input id={`${id}-lon`} type="number" step="any" min={-180} max={180} className={input} value={point.longitude ?? ""} onChange={(e) => set("longitude", e.target.value)} />
        </label>
      </div>
    </fieldset>
  );
}

/** A list field (the accordion's questions, columns): rows to add, remove and reorder. */
function ListField({ id, field, value, onChange, errors }: { id: string; field: EditorField; value: unknown; onChange(v: unknown): void; errors?: string[] }) {
  const { t } = useEnv();
  const { iconNames } = useSite();
  const rows = Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
  const max = field.maxItems ?? Infinity;
  const min = field.minItems ?? 0;
  const update = (i: number, name: string, v: unknown) => onChange(rows.map((r, j) => (j === i ? { ...r, [name]: v } : r)));
  const move = (i: number, d: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(i, 1);
    next.splice(i + d, 0, row!);
    onChange(next);
  };
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{field.label}</legend>
      <ol className="space-y-3">
        {rows.map((row, i) => (
          <li key={i} className="space-y-2 rounded border border-black/15 p-2">
            <div className="flex items-center justify-between gap-2 text-xs font-semibold">
              <span>{t.row(i + 1)}</span>
              <span className="flex gap-1">
                <button type="button" className="rounded border px-2 disabled:opacity-40" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`${t.row(i + 1)}: ${t.moveUp}`}>
                  ↑
                </button>
                <button type="button" className="rounded border px-2 disabled:opacity-40" disabled={i === rows.length - 1} onClick={() => move(i, 1)} aria-label={`${t.row(i + 1)}: ${t.moveDown}`}>
                  ↓
                </button>
                <button type="button" className="rounded border px-2 disabled:opacity-40" disabled={rows.length <= min} onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`${t.row(i + 1)}: ${t.remove_row}`}>
                  ✕
                </button>
              </span>
            </div>
            {(field.nested ?? []).map((f) => {
              const fid = `${id}-${i}-${f.name}`;
              const v = row[f.name];
              const s = typeof v === "string" ? v : "";
              return (
                <div key={f.name} className="space-y-1">
                  <span className="flex gap-1 text-xs font-medium">
                    <label htmlFor={fid}>{f.label}</label>
                    {f.isRequired ? <span aria-hidden="true">*</span> : null}
                  </span>
                  {f.tags?.includes("icon") ? (
                    <IconSelect common={{ id: fid }} value={s} names={iconNames} onChange={(nv) => update(i, f.name, nv)} />
                  ) : f.editor === "TextArea" ? (
                    <textarea id={fid} className={input} rows={3} value={s} onChange={(e) => update(i, f.name, e.target.value)} />
                  ) : (
                    <input id={fid} type="text" className={input} value={s} onChange={(e) => update(i, f.name, e.target.value)} />
                  )}
                </div>
              );
            })}
          </li>
        ))}
      </ol>
      <button type="button" className="rounded border border-[#0f5e63] px-3 py-1 text-sm text-[#0f5e63] disabled:opacity-40" disabled={rows.length >= max} onClick={() => onChange([...rows, newEntry(field)])}>
        + {t.add_row}
      </button>
      <FieldMessages id={`${id}-messages`} errors={errors} />
    </fieldset>
  );
}

interface Found {
  id: string;
  name: string;
  detail: string;
}

/**
 * A reference (a practitioner) chosen by searching: by name or city, ten at a time, at any size of
 * the directory (the content API's full-text search, visible entries only).
 */
function ReferencePicker({ common, field, value, onChange }: { common: Common; field: EditorField; value: unknown; onChange(v: unknown): void }) {
  const { t, data, ui } = useEnv();
  const language = useEditor((s) => s.language);
  const chosen = Array.isArray(value) && typeof value[0] === "string" ? value[0] : "";
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<Found[] | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});
  const collection = field.schemaIds?.[0] ?? "gm-content-practitioners";
  const listId = useId();
  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) return setFound(null);
    let current = true;
    const timer = setTimeout(async () => {
      try {
        // A search: safe to ask again.
        const res = await http("/api/rest", { method: "POST", idempotent: true, json: { url: `${collection}?${new URLSearchParams({ $search: q, $top: "10" })}`, language } });
        if (!res.ok) throw new Error(String(res.status));
        const body = (await res.json()) as { items: Array<{ id: string; data: Record<string, unknown> }> };
        if (current) setFound(body.items.map((i) => ({ id: i.id, name: String(i.data.name ?? i.data.title ?? i.id), detail: String(i.data.city ?? "") })));
      } catch (error) {
        log.error("Searching failed", error);
        if (current) setFound([]);
      }
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, collection, language]);
  const chosenName = chosen ? (names[chosen] ?? data.practitioners.find((p) => p.id === chosen)?.name ?? "") : "";
  return (
    <div className="space-y-2">
      <p className="text-sm" data-reference-chosen>
        {chosen ? (chosenName || (ui === "de" ? "Ausgewählt" : "Chosen")) : t.none}
        {chosen ? (
          <button type="button" className="ml-2 underline" onClick={() => onChange([])}>
            {ui === "de" ? "Auswahl entfernen" : "Remove choice"}
          </button>
        ) : null}
      </p>
      <input type="search" {...common} className={input} value={query} onChange={(e) => setQuery(e.target.value)} placeholder={ui === "de" ? "Name oder Ort suchen" : "Search a name or city"} aria-controls={listId} autoComplete="off" />
      <ul id={listId} className="max-h-48 space-y-1 overflow-auto" aria-live="polite">
        {found?.length === 0 ? <li className="text-sm text-black/70">{ui === "de" ? "Nichts gefunden." : "Nothing found."}</li> : null}
        {found?.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              className="w-full rounded border border-black/15 px-2 py-1 text-left text-sm hover:border-[#0f5e63]"
              onClick={() => {
                setNames((n) => ({ ...n, [f.id]: f.name }));
                onChange([f.id]);
                setQuery("");
              }}
            >
              {f.name}
              {f.detail ? <span className="text-black/70"> – {f.detail}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
