/**
 * The design screens' form rules, as plain form definitions for the one validation engine
 * (app/forms): the browser checks them live while an editor types and the server checks the same
 * definitions before anything is stored, so both always give the same answer ("Bad Hex", §5).
 */
import { perLanguage, type FormDefinition, type FormField } from "~/forms/definition";
import { validateSubmission } from "~/forms/engine";
import type { Language } from "~/i18n/languages";
import { BAD_HEX, HEX_PATTERN } from "~/theme/shades";


/** §5: the theme-colour rule of theme/shades.ts, as a FormKit rule with the spec's message "Bad Hex". */
export const HEX_RULE = `required|matches:/${HEX_PATTERN}/`;

/** The theme settings' colour roles, in the order the screen shows them. */
export const THEME_COLOR_FIELDS = ["colorMain", "colorSupport", "colorAccent", "colorNeutral", "colorBlack", "colorWhite"] as const;
export type ThemeColorField = (typeof THEME_COLOR_FIELDS)[number];

const labels = {
  de: { name: "Name", hexcode: "Hex-Code", colorMain: "Hauptfarbe", colorSupport: "Nebenfarbe", colorAccent: "Akzentfarbe", colorNeutral: "Neutralfarbe", colorBlack: "Schwarz", colorWhite: "Weiß" },
  en: { name: "Name", hexcode: "Hex code", colorMain: "Main colour", colorSupport: "Support colour", colorAccent: "Accent colour", colorNeutral: "Neutral colour", colorBlack: "Black", colorWhite: "White" },
} satisfies Record<Language, Record<"name" | "hexcode" | ThemeColorField, string>>;

export const designLabels = (language: Language) => labels[language];

const nameField = (language: Language): FormField => ({ name: "name", type: "text", label: labels[language].name, validation: "required|length:1,100" });
const hexField = (name: "hexcode" | ThemeColorField, language: Language): FormField => ({
  name,
  type: "text",
  label: labels[language][name],
  validation: HEX_RULE,
  errorMessage: BAD_HEX,
  visibility: "live",
});

/** A colour of the palette (core-theme-colors). */
export const colorForm = perLanguage((language): FormDefinition => ({ id: "design-color", fields: [nameField(language), hexField("hexcode", language)] }));

/** A theme (core-theme-settings): a name and the six role colours. */
export const themeForm = perLanguage((language): FormDefinition => ({
  id: "design-theme",
  fields: [nameField(language), ...THEME_COLOR_FIELDS.map((f) => hexField(f, language))],
}));

/** Only the name rule (text styles and icons check their other field themselves). */
export const nameForm = perLanguage((language): FormDefinition => ({ id: "design-name", fields: [nameField(language)] }));

/** The blocking messages per field for `values` (empty when valid); the same call in browser and server. */
export async function formErrors(definition: FormDefinition, values: Record<string, unknown>, language: Language): Promise<Record<string, string[]>> {
  return (await validateSubmission(definition, values, language)).errors;
}
