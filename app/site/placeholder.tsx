import type { LoaderFunctionArgs } from "react-router";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { messages, type Messages } from "~/i18n/messages";
import { originOf } from "./seo";

/** Routes that exist already and get their forms with later work: a titled page, not indexed. */
export function placeholderLoader(titleKey: keyof Messages) {
  return ({ request, context }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const { language, path } = splitLanguage(url.pathname);
    const alternates = { de: localizedPath("de", path), en: localizedPath("en", path) } as Record<Language, string>;
    return { language, title: messages(language)[titleKey] as string, alternates, canonical: alternates[language], origin: originOf(request, context) };
  };
}

export function Placeholder({ title, language }: { title: string; language: Language }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16" data-placeholder-page>
      <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4">{messages(language).comingSoon}</p>
    </div>
  );
}
