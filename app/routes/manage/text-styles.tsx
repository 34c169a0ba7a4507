import { useEffect, useState, type CSSProperties } from "react";
import { useActionData, useFetcher } from "react-router";
import type { Route } from "./+types/text-styles";
import { admin, type AdminResult, readAdminForm, refused } from "~/admin/admin.server";
import { deleteItem, saveChecked } from "~/admin/design/actions.server";
import { checkTextStyle, defaultThemeVariables, listDesignPage, pageParam, TEXT_STYLES, tokensWithCss } from "~/admin/design/design.server";
import { LiveTextField, DeleteForm } from "~/admin/design/ui";
import { AdminPage, buttonClass, EmptyState, Pager, SaveNotice } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";
import { validateClassTokens } from "~/theme/classes";
import { compileContentCss } from "~/theme/tailwind.server";

/**
 * `/manage/text-styles`: named sets of Tailwind classes (core-text-styles) with a live preview on
 * sample text. Only allow-listed class tokens are stored; refused ones are named. The preview uses
 * CSS compiled on the server for the saved styles of this page (as the site compiles the classes
 * used in content), so a class typed but not saved yet is listed as "shown after saving".
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Textstile",
    intro: "Benannte Tailwind-Klassen für Texte, z. B. „text-4xl font-bold tracking-tight“. Erlaubt sind nur einfache Klassen, ohne eckige oder runde Klammern, ! oder @.",
    name: "Name",
    classes: "Tailwind-Klassen",
    classesHelp: "Durch Leerzeichen getrennt.",
    sample: "Franz jagt im komplett verwahrlosten Taxi quer durch Bayern.",
    preview: "Vorschau",
    notCompiled: (tokens: string[]) => `Noch nicht im kompilierten Stylesheet, in der Vorschau erst nach dem Speichern sichtbar: ${tokens.join(" ")}`,
    badTokens: (tokens: string[]) => `Nicht erlaubte Klassen: ${tokens.join(" ")}`,
    newStyle: "Neuer Textstil",
    add: "Hinzufügen",
    save: "Speichern",
    remove: "Löschen",
    created: "Textstil angelegt.",
    saved: "Gespeichert.",
    deleted: "Gelöscht.",
    superuserOnly: "Nur Administrator:innen dürfen Inhalte löschen.",
    missing: "Welcher Eintrag? Es fehlt die ID.",
    empty: "Noch keine Textstile angelegt.",
    unknownIntent: "Unbekannte Aktion.",
  },
  en: {
    title: "Text styles",
    intro: "Named Tailwind classes for text, e.g. “text-4xl font-bold tracking-tight”. Only plain classes are allowed, without square or round brackets, ! or @.",
    name: "Name",
    classes: "Tailwind classes",
    classesHelp: "Separated by spaces.",
    sample: "The quick brown fox jumps over the lazy dog.",
    preview: "Preview",
    notCompiled: (tokens: string[]) => `Not in the compiled stylesheet yet, shown in the preview after saving: ${tokens.join(" ")}`,
    badTokens: (tokens: string[]) => `Classes not allowed: ${tokens.join(" ")}`,
    newStyle: "New text style",
    add: "Add",
    save: "Save",
    remove: "Delete",
    created: "Text style created.",
    saved: "Saved.",
    deleted: "Deleted.",
    superuserOnly: "Only administrators may delete content.",
    missing: "Which item? The id is missing.",
    empty: "No text styles yet.",
    unknownIntent: "Unknown action.",
  },
} satisfies Record<Language, unknown>;
type Texts = (typeof texts)[Language];

type StyleData = { name?: string; twclasses?: string };

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const url = new URL(args.request.url);
  const styles = await listDesignPage<StyleData>(services.store, TEXT_STYLES, pageParam(url, "page", language), language);
  const tokens = validateClassTokens(styles.items.map((s) => s.data.twclasses ?? "").join(" ")).valid;
  const css = await compileContentCss(tokens);
  return { language, superuser: user.superuser, styles, css, compiled: tokensWithCss(css, tokens), variables: await defaultThemeVariables(args.context), path: url.pathname };
}

export async function action(args: Route.ActionArgs) {
  const { user, language } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  if (fields.intent === "save-style") return saveChecked(args, user, TEXT_STYLES, fields, await checkTextStyle(fields, language), text);
  if (fields.intent === "delete-style") return deleteItem(args, user, TEXT_STYLES, fields, text);
  return refused(text.unknownIntent);
}

/** One text style (or a new one), with its preview following the typed classes. */
function StyleEditor({ text, compiled, variables, item }: { text: Texts; compiled: ReadonlySet<string>; variables: Record<string, string>; item?: { id: string; version: number; data: StyleData } }) {
  const fetcher = useFetcher<AdminResult>();
  const [name, setName] = useState(item?.data.name ?? "");
  const [classes, setClasses] = useState(item?.data.twclasses ?? "");
  // A saved change comes back with a new version: show what is stored (the notice stays).
  useEffect(() => {
    if (item) (setName(item.data.name ?? ""), setClasses(item.data.twclasses ?? ""));
  }, [item?.version]);
  // The new-style form starts empty again once its style is stored.
  useEffect(() => {
    if (!item && fetcher.state === "idle" && fetcher.data?.ok) (setName(""), setClasses(""));
  }, [item, fetcher.state, fetcher.data]);
  const { valid, invalid } = validateClassTokens(classes);
  const pending = valid.filter((t) => !compiled.has(t));
  const serverErrors = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.errors : undefined;
  return (
    <fetcher.Form
      method="post"
      className="space-y-3"
      onSubmit={(e) => {
        // Refused tokens are named right under the field; the server would refuse them the same way.
        if (invalid.length) e.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="save-style" />
      {item ? <input type="hidden" name="id" value={item.id} /> : null}
      {item ? <input type="hidden" name="version" value={item.version} /> : null}
      <div className="grid gap-3 md:grid-cols-[14rem_1fr]">
        <LiveTextField label={text.name} name="name" value={name} onChange={setName} error={serverErrors?.name?.[0]} />
        <LiveTextField
          label={text.classes}
          name="twclasses"
          value={classes}
          onChange={setClasses}
          mono
          help={text.classesHelp}
          error={invalid.length ? text.badTokens(invalid) : serverErrors?.twclasses?.[0]}
        />
      </div>
      <figure className="rounded border border-dashed border-slate-400 p-3" style={variables as CSSProperties}>
        <figcaption className="mb-2 text-xs font-semibold text-slate-700">{text.preview}</figcaption>
        <p className={valid.join(" ")} data-text-style-preview>
          {text.sample}
        </p>
      </figure>
      {pending.length ? (
        <p className="text-sm text-slate-700" data-not-compiled>
          {text.notCompiled(pending)}
        </p>
      ) : null}
      <button type="submit" className={buttonClass(item ? "secondary" : "primary")} disabled={fetcher.state !== "idle"}>
        {item ? text.save : text.add}
      </button>
      {fetcher.data && fetcher.state === "idle" ? <SaveNotice result={fetcher.data} /> : null}
    </fetcher.Form>
  );
}

export default function TextStyles({ loaderData }: Route.ComponentProps) {
  const { language, superuser, styles, css, compiled, variables, path } = loaderData;
  // Texts come from this module, not loader data: some are functions.
  const text = texts[language];
  const result = useActionData<typeof action>();
  const known = new Set(compiled);
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      {/* Built on the server from allow-listed class tokens only (theme/tailwind.server.ts). */}
      <style dangerouslySetInnerHTML={{ __html: css }} />
      <SaveNotice result={result} />
      {styles.items.length === 0 ? <EmptyState>{text.empty}</EmptyState> : null}
      <ul className="space-y-4">
        {styles.items.map((item) => (
          <li key={item.id} className="space-y-3 rounded border border-slate-300 bg-white p-4" data-text-style={item.data.name}>
            <StyleEditor text={text} compiled={known} variables={variables} item={item} />
            {superuser ? <DeleteForm id={item.id} intent="delete-style" label={text.remove} name={item.data.name ?? item.id} /> : null}
          </li>
        ))}
      </ul>
      <Pager page={styles.page} pages={styles.pages} href={(page) => `${path}?page=${page}`} />
      <section aria-labelledby="new-style" className="rounded border border-slate-300 bg-white p-4" data-new-text-style>
        <h2 id="new-style" className="mb-2 text-lg font-bold">
          {text.newStyle}
        </h2>
        <StyleEditor text={text} compiled={known} variables={variables} />
      </section>
    </AdminPage>
  );
}
