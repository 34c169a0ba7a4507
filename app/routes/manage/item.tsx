import { data, Link, useActionData, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/item";
import { admin, askFirst, done, isConfirmed, mutate, readAdminForm, refused, writer, type AdminResult, type Confirmation } from "~/admin/admin.server";
import { keepsDrafts, updateAsDraft } from "~/admin/pages/page-edit";
import { can, keepsItem, userPrincipal } from "~/content/policy";
import { dataFromValues, ItemInputError, itemForm, nestedLabelsOf, nestedSpec, storeErrorsByField, valuesFromData, type NestedSpec } from "~/admin/content/item-form";
import { loadSite } from "~/site/site.server";
import { storeDetail } from "~/admin/store-messages";
import { collectionName, fieldLabel } from "~/admin/content/field-words";
import { peopleNames, personName } from "~/editor/people.server";
import { requireCollection, titleOf } from "~/admin/content/schema-route.server";
import { useActionCall } from "~/admin/content/use-action-call";
import { AdminPage, buttonClass, ConfirmStep, SaveNotice, StatusBadge, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { ContentError } from "~/content/errors";
import { isValidId } from "~/content/ids";
import type { ContentData, ContentItem, Schema } from "~/content/types";
import type { FormValues } from "~/forms/definition";
import { EngineForm } from "~/forms/react";
import { adminControls } from "~/admin/content/controls";
import { ControlsDataProvider, type ControlsData } from "~/admin/content/controls/context";
import { controlsData } from "~/admin/content/controls/data.server";
import { FormRejected, requireValid } from "~/forms/submission.server";
import { LANGUAGES, localizedPath, type Language } from "~/i18n/languages";
import { parseBerlinTime, ScheduleBox, scheduleTexts } from "~/admin/content/schedule";
import { formatSlot } from "~/booking/days";

/**
 * `/manage/content/:schema/:itemid` (`new` creates): the item's form, made from its schema by the
 * same engine as the visitors' forms, so the browser and this action check the same rules; the
 * store's own validation runs on top and its messages show beside the fields. Every write carries
 * the version the editor saw (a stale one is refused) and goes into the audit log.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    back: (label: string) => `Zurück zu „${label}“`,
    newTitle: (label: string) => `Neuer Eintrag in „${label}“`,
    version: "Version",
    modified: "Zuletzt geändert",
    by: "Geändert von",
    skippedTitle: "Weitere Felder (nur lesbar)",
    skippedNote: "Diese Felder lassen sich hier nicht bearbeiten (verborgene oder gesperrte Felder, JSON über 10 000 Zeichen); beim Speichern bleiben sie unverändert.",
    emptyValue: "(leer)",
    created: "Eintrag angelegt.",
    updated: "Gespeichert.",
    updatedDraft: "Als Entwurf gespeichert. Die Website zeigt die veröffentlichte Fassung, bis Sie veröffentlichen.",
    discard: "Entwurf verwerfen",
    discarded: "Entwurf verworfen; es gilt wieder die veröffentlichte Fassung.",
    confirmDiscard: (title: string) => `Den Entwurf von „${title}“ wirklich verwerfen?`,
    discardDetail: "Die Änderungen seit der letzten Veröffentlichung gehen verloren; es gilt wieder die veröffentlichte Fassung.",
    yesDiscard: "Ja, Entwurf verwerfen",
    published: "Veröffentlicht.",
    unpublished: "Zurückgezogen; der Eintrag ist nicht mehr öffentlich.",
    deleted: "Eintrag gelöscht.",
    badVersion: "Die Version fehlt oder ist ungültig. Bitte laden Sie die Seite neu.",
    unknownIntent: "Unbekannte Aktion.",
    gone: "Diesen Eintrag gibt es nicht (mehr).",
    conflict: "Der Eintrag wurde inzwischen von jemand anderem geändert. Bitte laden Sie die Seite neu; Ihre Eingaben sind noch im Formular.",
    toList: "Zur Liste",
  },
  en: {
    back: (label: string) => `Back to “${label}”`,
    newTitle: (label: string) => `New item in “${label}”`,
    version: "Version",
    modified: "Last modified",
    by: "Changed by",
    skippedTitle: "More fields (read only)",
    skippedNote: "These fields cannot be edited here (hidden or disabled fields, JSON over 10,000 characters); saving keeps them as they are.",
    emptyValue: "(empty)",
    created: "Item created.",
    updated: "Saved.",
    updatedDraft: "Saved as a draft. The site shows the published version until you publish.",
    discard: "Discard draft",
    discarded: "Draft discarded; the published version applies again.",
    confirmDiscard: (title: string) => `Really discard the draft of “${title}”?`,
    discardDetail: "The changes since it was last published are lost; the published version applies again.",
    yesDiscard: "Yes, discard the draft",
    published: "Published.",
    unpublished: "Unpublished; the item is no longer public.",
    deleted: "Item deleted.",
    badVersion: "The version is missing or invalid. Please reload the page.",
    unknownIntent: "Unknown action.",
    gone: "This item does not exist (any more).",
    conflict: "Someone else changed this item meanwhile. Please reload the page; your input is still in the form.",
    toList: "To the list",
  },
} satisfies Record<Language, unknown>;

/** A read-only field's JSON is cut here: the page must not grow with one huge value. */
const MAX_JSON_CHARS = 4000;

/** The item an id names, 400 for an id that cannot be one, 404 for none. */
async function requireItem(args: Route.LoaderArgs | Route.ActionArgs, schema: Schema): Promise<ContentItem> {
  const id = args.params.itemid;
  if (!isValidId(id)) throw data(null, { status: 400 });
  const item = await args.context.services.store.get(schema.name, id, { unpublished: true });
  if (!item) throw data(null, { status: 404 });
  return item;
}

/**
 * What the list and component controls need: the component schemas' fields in the admin's words,
 * icon names for a menu entry's icon, and where a page's blocks are edited (edit mode on the page).
 */
async function moreControlsData(args: Route.LoaderArgs, schema: Schema, item: ContentItem | null, language: Language): Promise<Pick<ControlsData, "components" | "iconNames" | "editHref">> {
  const { store } = args.context.services;
  const components: Record<string, NestedSpec[]> = {};
  for (const field of schema.fields) {
    if (field.properties.fieldType !== "Component") continue;
    for (const name of field.properties.schemaIds ?? []) {
      const component = await store.getSchema(name);
      if (component) components[name] = component.fields.map((f) => nestedSpec(f, language, { schema: component.name }));
    }
  }
  const wantsIcons = schema.fields.some((f) => f.nested?.some((n) => n.properties.tags?.includes("icon")));
  const iconNames = wantsIcons ? Object.keys((await loadSite(args.context)).theme.icons).sort() : undefined;
  // Each language's blocks are edited on that language's page.
  const editHref: Partial<Record<Language, string>> = {};
  for (const l of LANGUAGES) {
    const slug = item && schema.name === "core-pages" ? ((item.data.seo?.[l] ?? item.data.seo?.de) as { slug?: unknown } | undefined)?.slug : undefined;
    if (typeof slug === "string" && slug) editHref[l] = `${localizedPath(l, slug === "home" ? "/" : `/${slug}`)}?edit=1`;
  }
  return { components, ...(iconNames ? { iconNames } : {}), ...(Object.keys(editHref).length ? { editHref } : {}) };
}

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const schema = await requireCollection(services.store, args.params.schema);
  const found = args.params.itemid === "new" ? null : await requireItem(args, schema);
  const item = found ? ((await services.store.withSchedules([found]))[0] ?? found) : null;
  const form = itemForm(schema, language, item?.data);
  const people = item ? await peopleNames(args.context) : undefined;
  const title = item ? titleOf(schema, item) : null;
  return {
    language,
    // The singleton's item (the global settings) is neither deleted nor unpublished: no button for it.
    mayDelete: can(userPrincipal(user), "delete", schema.name),
    mayUnpublish: can(userPrincipal(user), "unpublish", schema.name),
    schema: { name: schema.name, label: collectionName(schema, language) },
    definition: form.definition,
    initial: item ? valuesFromData(schema, item.data, form) : {},
    controls: {
      ...(await controlsData(services.store, schema, item, { superuser: user.superuser === true, appName: services.env.SQUIDEX_APP_NAME, mapStyleUrl: services.env.MAP_STYLE_URL })),
      ...(await moreControlsData(args, schema, item, language)),
    },
    skipped: form.readOnly.map((name) => {
      const field = schema.fields.find((f) => f.name === name)!;
      const value = item?.data[name];
      // Plain values (a disabled text field) read as text, per language; lists and objects stay JSON.
      const plain = plainText(value, language);
      const json = value === undefined || plain !== undefined ? null : JSON.stringify(value, null, 2);
      return { name, label: fieldLabel(schema.name, field, language), text: plain ?? null, json: json && json.length > MAX_JSON_CHARS ? `${json.slice(0, MAX_JSON_CHARS)}\n…` : json };
    }),
    item: item
      ? {
          id: item.id,
          title,
          status: item.status,
          newStatus: item.newStatus ?? null,
          version: item.version,
          lastModified: item.lastModified,
          lastModifiedBy: personName(people!, item.lastModifiedBy, language),
          schedule: item.scheduleJob ? { status: item.scheduleJob.status, dueTime: item.scheduleJob.dueTime, by: personName(people!, item.scheduleJob.scheduledBy, language) } : null,
        }
      : null,
  };
}


export async function action(args: Route.ActionArgs) {
  const { user, language, t, services } = admin(args);
  const text = texts[language];
  const schema = await requireCollection(services.store, args.params.schema);
  const fields = await readAdminForm(args.request);
  const isNew = args.params.itemid === "new";
  if (!isNew && !isValidId(args.params.itemid)) return refused(text.gone, 400);
  // Global settings and the admin menu shape the whole site: superusers change them (the policy).
  if (!can(userPrincipal(user), "update", schema.name)) return refused(t.forbidden, 403);
  const store = services.store;
  const ctx = { ...args, user };
  const version = fields.version === undefined || fields.version === "" ? undefined : /^[0-9]{1,9}$/.test(fields.version) ? Number(fields.version) : NaN;
  if (Number.isNaN(version) || (!isNew && version === undefined)) return refused(text.badVersion, 400);
  const write = { ...writer(user), ...(version !== undefined ? { expectedVersion: version } : {}) };

  if (fields.intent === "save") {
    // The item as the editor saw it decides the form (a JSON value too long for an input is not in it).
    const stored = isNew ? undefined : await store.get(schema.name, args.params.itemid, { unpublished: true });
    if (!isNew && !stored) return refused(text.gone, 404);
    const form = itemForm(schema, language, stored?.data);
    const { definition } = form;
    const sent = Object.fromEntries(definition.fields.filter((f) => Object.hasOwn(fields, f.name)).map((f) => [f.name, fields[f.name]!]));
    let data: ContentData;
    try {
      const values = await requireValid(definition, fields, language);
      data = dataFromValues(schema, values, stored?.data, form, language);
    } catch (error) {
      if (error instanceof FormRejected) return refusedInput(error.message, 400, error.errors, sent);
      if (error instanceof ItemInputError) return refusedInput(t.saveFailed(400), 400, error.errors, sent);
      throw error;
    }
    // The store checks again (its own rules); its messages are placed beside the fields.
    let invalid: string[] | undefined;
    const checked = async <T,>(run: () => Promise<T>) => {
      try {
        return await run();
      } catch (error) {
        if (error instanceof ContentError && error.statusCode === 400 && error.details?.length) invalid = error.details;
        throw error;
      }
    };
    const answer = stored
      ? await mutate(
          ctx,
          null,
          // Pages (and collections tagged "drafts"): a change is a draft until published; the live item stays.
          () => checked(() => (keepsDrafts(schema) ? updateAsDraft(store, schema.name, stored.id, data, write) : store.update(schema.name, stored.id, data, write))),
          (r) => done(keepsDrafts(schema) && (r as ContentItem).status === "Published" ? text.updatedDraft : text.updated, 200, { id: (r as ContentItem).id }),
        )
      : await mutate(
          ctx,
          null,
          () => checked(() => store.create(schema.name, data, writer(user))),
          (r) => done(text.created, 201, { id: (r as ContentItem).id }),
        );
    if (invalid) {
      const componentLabels: Record<string, string> = {};
      for (const f of schema.fields)
        if (f.properties.fieldType === "Component")
          for (const name of f.properties.schemaIds ?? []) for (const c of (await store.getSchema(name))?.fields ?? []) componentLabels[c.name] = fieldLabel(name, c, language);
      const { errors, rest } = storeErrorsByField(schema, invalid, form, nestedLabelsOf(schema, componentLabels, language));
      // The store speaks the Squidex API's English: said here in the editor's language.
      const said = Object.fromEntries(Object.entries(errors).map(([name, list]) => [name, list.map((m) => storeDetail(m, language))]));
      return refusedInput([t.saveFailed(400), ...rest.map((m) => storeDetail(m, language))].join(" "), 400, said, sent);
    }
    return localiseConflict(answer, text.conflict);
  }

  if (isNew) return refused(text.unknownIntent);
  const current = await requireItem(args, schema);
  const id = current.id;
  if (fields.intent === "publish" || fields.intent === "unpublish") {
    if (fields.intent === "unpublish" && keepsItem("unpublish", schema.name)) return refused(t.singletonKept, 400);
    const publish = fields.intent === "publish";
    return mutate(
      ctx,
      null,
      () => store.changeStatus(schema.name, id, publish ? "Published" : "Draft", write),
      () => done(publish ? text.published : text.unpublished),
    ).then((answer) => localiseConflict(answer, text.conflict));
  }
  if (fields.intent === "schedule") {
    const said = scheduleTexts[language];
    const target = fields.target === "Draft" ? "Draft" : "Published";
    if (target === "Draft" && keepsItem("unpublish", schema.name)) return refused(t.singletonKept, 400);
    const when = parseBerlinTime(fields.when);
    if (!(when instanceof Date)) return refused(when === "past" ? said.pastTime : when === "missing" ? said.noSuchTime : said.badTime, 400);
    return mutate(
      ctx,
      null,
      () => store.scheduleStatus(schema.name, id, target, when, write),
      () => done(said.scheduled(formatSlot(language, when.toISOString(), "full"))),
    ).then((answer) => localiseConflict(answer, text.conflict));
  }
  if (fields.intent === "cancel-schedule") {
    return mutate(
      ctx,
      null,
      () => store.cancelSchedule(schema.name, id, write),
      () => done(scheduleTexts[language].cancelled),
    ).then((answer) => localiseConflict(answer, text.conflict));
  }
  if (fields.intent === "discard") {
    // Asked first, by the server (issue 22, point 4): the draft's changes would be gone for good.
    if (!isConfirmed(fields)) {
      const title = titleOf(schema, current);
      return askFirst({ question: text.confirmDiscard(title), detail: text.discardDetail, confirmLabel: text.yesDiscard, fields: { intent: "discard", version: fields.version ?? "" } });
    }
    return mutate(
      ctx,
      null,
      () => store.discardDraft(schema.name, id, write),
      () => done(text.discarded),
    ).then((answer) => localiseConflict(answer, text.conflict));
  }
  if (fields.intent === "delete") {
    if (keepsItem("delete", schema.name)) return refused(t.singletonKept, 400);
    if (!can(userPrincipal(user), "delete", schema.name)) return refused(t.forbidden, 403);
    // Asked first, by the server: a delete that was not confirmed changes nothing.
    if (!isConfirmed(fields)) {
      const title = titleOf(schema, current);
      return askFirst({ question: t.confirmDeleteItem(title), detail: t.deleteForGood, confirmLabel: t.yesDelete(title), fields: { intent: "delete", version: fields.version ?? "" } });
    }
    return mutate(
      ctx,
      null,
      () => store.delete(schema.name, id, write),
      () => done(text.deleted, 200, { id, deleted: true } as Partial<AdminResult>),
    ).then((answer) => localiseConflict(answer, text.conflict));
  }
  return refused(text.unknownIntent);
}

/**
 * A refused save that also hands back what was sent (the form's fields only): without JavaScript
 * the page is rendered anew, and the editor's input must not be lost.
 */
function refusedInput(message: string, status: number, errors: Record<string, string[]>, sent: Record<string, string>) {
  return data<AdminResult & { values: Record<string, string> }>({ ok: false, message, errors, values: sent }, { status });
}

/** The store's version conflict (412, in English) in the editor's words. */
function localiseConflict(answer: Awaited<ReturnType<typeof mutate>>, message: string) {
  return answer.init?.status === 412 ? refused(message, 412) : answer;
}

/** After a delete the item is gone: keep the page (with its notice) instead of reloading into a 404. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === "object" && (actionResult as { deleted?: boolean }).deleted) return false;
  return defaultShouldRevalidate;
}

type Answer = AdminResult & { deleted?: boolean; values?: Record<string, string>; confirm?: Confirmation };

export default function Item({ loaderData }: Route.ComponentProps) {
  const { language, mayDelete, mayUnpublish, schema, definition, initial, skipped, item, controls } = loaderData;
  const text = texts[language];
  const { t } = useAdmin();
  const navigate = useNavigate();
  const { call, fetcher } = useActionCall<Answer>();
  const actionData = useActionData<typeof action>() as Answer | undefined;
  const result = fetcher.data ?? actionData;
  const busy = fetcher.state !== "idle";
  const list = `/manage/content/${encodeURIComponent(schema.name)}`;
  const here = `${list}/${item ? encodeURIComponent(item.id) : "new"}`;
  const version = item ? String(item.version) : "";
  const locale = language === "de" ? "de-DE" : "en-GB";

  async function save(values: FormValues) {
    const body: Record<string, string> = { intent: "save", version };
    for (const [name, value] of Object.entries(values)) body[name] = typeof value === "boolean" ? String(value) : value;
    const answer = await call(body);
    if (answer?.ok) {
      if (!item && answer.id) navigate(`${list}/${encodeURIComponent(answer.id)}`);
      return { ok: true as const, data: answer };
    }
    return { ok: false as const, problem: { message: answer?.message ?? t.saveFailed(0), ...(answer?.errors ? { errors: answer.errors } : {}) } };
  }

  if (result?.deleted) {
    return (
      <AdminPage title={item?.title ? <span data-content>{item.title}</span> : schema.label}>
        <SaveNotice result={result} />
        <Link to={list} className={buttonClass("secondary")}>
          {text.toList}
        </Link>
      </AdminPage>
    );
  }

  return (
    <AdminPage
      title={item ? <span data-content>{item.title ?? item.id}</span> : text.newTitle(schema.label)}
      intro={
        <p>
          <Link to={list} className="underline">
            {text.back(schema.label)}
          </Link>
        </p>
      }
      actions={
        item ? (
          <>
            {item.status === "Published" && !item.newStatus && !mayUnpublish ? null : (
              <fetcher.Form method="post">
                <input type="hidden" name="version" value={version} />
                <button type="submit" name="intent" value={item.status === "Published" && !item.newStatus ? "unpublish" : "publish"} className={buttonClass("secondary")} disabled={busy}>
                  {item.status === "Published" && !item.newStatus ? t.unpublish : t.publish}
                </button>
              </fetcher.Form>
            )}
            {item.status === "Published" && item.newStatus ? (
              <>
                {mayUnpublish ? (
                  <fetcher.Form method="post">
                    <input type="hidden" name="version" value={version} />
                    <button type="submit" name="intent" value="unpublish" className={buttonClass("secondary")} disabled={busy}>
                      {t.unpublish}
                    </button>
                  </fetcher.Form>
                ) : null}
                <fetcher.Form method="post">
                  <input type="hidden" name="version" value={version} />
                  <button type="submit" name="intent" value="discard" className={buttonClass("secondary")} disabled={busy} data-discard-draft>
                    {text.discard}
                  </button>
                </fetcher.Form>
              </>
            ) : null}
            {mayDelete ? (
              // The server asks before it deletes (ConfirmStep below): the same with and without JavaScript.
              <fetcher.Form method="post">
                <input type="hidden" name="version" value={version} />
                <button type="submit" name="intent" value="delete" className={buttonClass("danger")} disabled={busy} data-delete-item>
                  {t.delete}
                </button>
              </fetcher.Form>
            ) : null}
          </>
        ) : null
      }
    >
      {item ? (
        <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm" data-item-meta>
          <div>
            <dt className="font-semibold">{t.status}</dt>
            <dd>
              <StatusBadge status={item.status} newStatus={item.newStatus} />
            </dd>
          </div>
          <div>
            <dt className="font-semibold">{text.version}</dt>
            <dd data-item-version>{item.version}</dd>
          </div>
          <div>
            <dt className="font-semibold">{text.modified}</dt>
            <dd>{new Date(item.lastModified).toLocaleString(locale, { timeZone: "Europe/Berlin" })}</dd>
          </div>
          <div>
            <dt className="font-semibold">{text.by}</dt>
            <dd>{item.lastModifiedBy}</dd>
          </div>
        </dl>
      ) : null}
      {item ? <ScheduleBox language={language} pending={item.schedule} mayUnpublish={mayUnpublish} isPublished={item.status === "Published"} version={version} busy={busy} Form={fetcher.Form} /> : null}
      <ConfirmStep confirm={result?.confirm} Form={fetcher.Form} cancelHref={here} />
      <SaveNotice result={result} />
      <div className="max-w-3xl rounded border border-slate-300 bg-white p-4">
        <ControlsDataProvider value={controls}>
          <EngineForm
            key={here}
            controls={adminControls}
            definition={definition}
            language={language}
            action={here}
            initial={actionData?.values ?? initial}
            problem={actionData && !actionData.ok ? { message: actionData.message, ...(actionData.errors ? { errors: actionData.errors } : {}) } : null}
            hidden={{ intent: "save", version }}
            submitLabel={item ? t.save : t.create}
            onSubmit={save}
          />
        </ControlsDataProvider>
      </div>
      {skipped.length ? (
        <section aria-labelledby="skipped-fields" className="max-w-3xl space-y-2">
          <h2 id="skipped-fields" className="text-lg font-bold">
            {text.skippedTitle}
          </h2>
          <p className="text-sm text-slate-700">{text.skippedNote}</p>
          <dl className="space-y-2">
            {skipped.map((f) => (
              <div key={f.name} className="rounded border border-slate-300 bg-white p-3" data-readonly-field={f.name}>
                <dt className="font-semibold">{f.label}</dt>
                <dd>{f.text ? <p className="mt-1 whitespace-pre-wrap text-sm">{f.text}</p> : f.json ? <pre className="mt-1 max-h-60 overflow-auto text-xs whitespace-pre-wrap" tabIndex={0}>{f.json}</pre> : <span className="text-sm text-slate-700">{text.emptyValue}</span>}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
    </AdminPage>
  );
}

/**
 * A stored value of plain texts, numbers or yes/no as text: the one value of an invariant field, or
 * "DE: …" lines of a localised one. Undefined for anything else (lists, objects), which stays JSON.
 */
function plainText(value: unknown, language: "de" | "en"): string | undefined {
  const shown = (v: unknown) => (typeof v === "boolean" ? (v ? { de: "Ja", en: "Yes" } : { de: "Nein", en: "No" })[language] : String(v));
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined && v !== "");
  if (!entries.length || !entries.every(([, v]) => ["string", "number", "boolean"].includes(typeof v))) return undefined;
  if (entries.length === 1 && entries[0]![0] === "iv") return shown(entries[0]![1]);
  return entries.map(([key, v]) => `${key.toUpperCase()}: ${shown(v)}`).join("\n");
}
