import type { CSSProperties } from "react";
import type { Route } from "./+types/tailwind";
import { admin } from "~/admin/admin.server";
import { defaultThemeVariables } from "~/admin/design/design.server";
import { AdminPage, EmptyState } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";
import { loadSite } from "~/site/site.server";
import { validateClassTokens } from "~/theme/classes";
import { compileContentCss, FONT_ROLES } from "~/theme/tailwind.server";

/**
 * `/manage/tailwind` (read-only): the design tokens content may use — the colour variables of the
 * site's default theme with their shades, the font roles — and the utility classes the text styles
 * use, each previewed with the CSS the site compiles for content.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Tailwind",
    intro: "Was Inhalte an Gestaltung nutzen können. Farben heißen in Klassen wie die Variable ohne „--color-“, z. B. bg-main, text-accent-12 oder border-main--6.",
    colors: "Farbvariablen (Standard-Theme)",
    variable: "Variable",
    value: "Wert",
    sample: "Muster",
    fonts: "Schriftrollen",
    role: "Rolle",
    fontSample: "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich.",
    utilities: "Klassen aus Textstilen",
    style: "Textstil",
    classes: "Klassen",
    noStyles: "Noch keine Textstile.",
  },
  en: {
    title: "Tailwind",
    intro: "What content can use for design. In classes a colour is named like its variable without “--color-”, e.g. bg-main, text-accent-12 or border-main--6.",
    colors: "Colour variables (default theme)",
    variable: "Variable",
    value: "Value",
    sample: "Sample",
    fonts: "Font roles",
    role: "Role",
    fontSample: "The quick brown fox jumps over the lazy dog.",
    utilities: "Classes from text styles",
    style: "Text style",
    classes: "Classes",
    noStyles: "No text styles yet.",
  },
} satisfies Record<Language, unknown>;

/** The font role variables in the theme stylesheet's :root (`--font-main: "Source Sans 3", ...`). */
function fontRoles(css: string): Array<{ role: string; value: string }> {
  return FONT_ROLES.map((role) => ({ role, value: new RegExp(`--font-${role}:\\s*([^;]+);`).exec(css)?.[1]?.trim() ?? "" }));
}

export async function loader(args: Route.LoaderArgs) {
  const { language } = admin(args);
  const [site, variables] = await Promise.all([loadSite(args.context), defaultThemeVariables(args.context)]);
  const styles = Object.entries(site.theme.textStyles).map(([name, classes]) => ({ name, classes }));
  const css = await compileContentCss(validateClassTokens(styles.map((s) => s.classes).join(" ")).valid);
  return { text: texts[language], variables, fonts: fontRoles(site.theme.css), styles, css };
}

export default function Tailwind({ loaderData }: Route.ComponentProps) {
  const { text, variables, fonts, styles, css } = loaderData;
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      {/* Compiled on the server from allow-listed class tokens only. */}
      <style dangerouslySetInnerHTML={{ __html: css }} />
      <section aria-labelledby="tw-colors" className="space-y-2">
        <h2 id="tw-colors" className="text-xl font-bold">
          {text.colors}
        </h2>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse bg-white text-left text-sm">
            <thead>
              <tr className="border-b border-slate-400">
                <th scope="col" className="p-2">{text.variable}</th>
                <th scope="col" className="p-2">{text.value}</th>
                <th scope="col" className="p-2">{text.sample}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(variables).map(([name, value]) => (
                <tr key={name} className="border-b border-slate-200" data-token={name}>
                  <td className="p-2 font-mono">{name}</td>
                  <td className="p-2 font-mono">{value}</td>
                  <td className="p-2">
                    <span aria-hidden="true" className="block h-6 w-16 rounded border border-slate-300" style={{ backgroundColor: value }} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="tw-fonts" className="space-y-2">
        <h2 id="tw-fonts" className="text-xl font-bold">
          {text.fonts}
        </h2>
        <ul className="space-y-2">
          {fonts.map((font) => (
            <li key={font.role} className="rounded border border-slate-300 bg-white p-3" data-font-role={font.role}>
              <p className="font-mono text-sm">
                --font-{font.role}: {font.value}
              </p>
              <p className="text-lg" style={{ fontFamily: font.value || undefined }}>
                {text.fontSample}
              </p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="tw-utilities" className="space-y-2">
        <h2 id="tw-utilities" className="text-xl font-bold">
          {text.utilities}
        </h2>
        {styles.length === 0 ? <EmptyState>{text.noStyles}</EmptyState> : null}
        <ul className="space-y-2">
          {styles.map((style) => (
            <li key={style.name} className="rounded border border-slate-300 bg-white p-3" data-utility-style={style.name}>
              <p className="text-sm">
                <span className="font-semibold">{style.name}</span>: <code className="font-mono">{style.classes}</code>
              </p>
              <div style={variables as CSSProperties}>
                <p className={style.classes}>{text.fontSample}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </AdminPage>
  );
}
