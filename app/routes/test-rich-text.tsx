import { lazy, Suspense, useEffect, useState } from "react";
import type { Route } from "./+types/test-rich-text";
import { notFound } from "~/site/page.server";

/**
 * The editor's rich-text field on a page of its own, for the browser test
 * (tests/e2e/rich-text.spec.ts): the field with some text, its latest output in <output data-html>,
 * that output as the canvas would show it, and the canvas sanitiser for the test to call. Answers
 * 404 unless TEST_ROUTES=true (test servers only). ?lang=en for English, ?start=empty for no text,
 * ?start=hostile for stored text with scripts in it.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (!context.services.env.TEST_ROUTES) notFound(url.pathname);
  const start = url.searchParams.get("start");
  return {
    language: url.searchParams.get("lang") === "en" ? ("en" as const) : ("de" as const),
    initial: start === "empty" ? "" : start === "hostile" ? HOSTILE : `<h2>Sprechzeiten</h2><p>Montag bis <strong>Freitag</strong>, 8 bis 12 Uhr.</p>`,
  };
}

/** Stored text with what a careless or hostile colleague could have put in: it must not run here. */
const HOSTILE =
  `<p class="x" style="color:red">Vorher<img src="x" onerror="window.__ranHostile = 'img'"></p>` +
  `<script>window.__ranHostile = "script"</script>` +
  `<h1 onclick="window.__ranHostile = 'click'">Titel</h1>` +
  `<p><a href="javascript:window.__ranHostile = 'link'">böse</a> <a href="https://example.org" target="_blank">gut</a></p>`;

// Its own chunk: Lexical loads where the field is shown, never with the public pages.
const RichTextField = lazy(() => import("~/editor/fields/rich-text-field").then((m) => ({ default: m.RichTextField })));

/** A value set from outside the field, as the editor's undo would. */
const OUTSIDE_VALUE = "<p>Von außen gesetzt</p>";

export default function TestRichText({ loaderData }: Route.ComponentProps) {
  const { language, initial } = loaderData;
  const [value, setValue] = useState(initial);
  const [changes, setChanges] = useState(0);
  // The field and the preview exist in the browser only: Lexical edits a live DOM, and the
  // canvas sanitiser gives nothing on the server.
  const [hydrated, setHydrated] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [sanitize, setSanitize] = useState<((html: string) => string) | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    let live = true;
    void import("~/editor/sanitize").then((m) => {
      if (!live) return;
      (window as unknown as { __sanitizeRichTextClient: (html: string) => string }).__sanitizeRichTextClient = m.sanitizeRichTextClient;
      setSanitize(() => m.sanitizeRichTextClient);
    });
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (sanitize) setPreview(sanitize(value));
  }, [sanitize, value]);

  return (
    <main lang={language} className="mx-auto max-w-3xl px-6 py-10">
      <title>Rich text test</title>
      <h1 className="mb-6 text-2xl font-bold">Rich text</h1>
      <p id="rich-text-help" className="mb-2 text-sm text-slate-700">
        {language === "de" ? "Der Text des Blocks." : "The block's text."}
      </p>
      {hydrated ? (
        <Suspense fallback={<p>…</p>}>
          <RichTextField
            id="rich-text"
            label={language === "de" ? "Inhalt" : "Content"}
            value={value}
            language={language}
            describedBy="rich-text-help"
            onChange={(html) => {
              setValue(html);
              setChanges((n) => n + 1);
            }}
          />
        </Suspense>
      ) : (
        <p>…</p>
      )}
      <button type="button" className="mt-4 rounded border border-slate-400 px-3 py-1" onClick={() => setValue(OUTSIDE_VALUE)}>
        {language === "de" ? "Wert von außen setzen" : "Set value from outside"}
      </button>
      <h2 className="mt-6 font-semibold">{language === "de" ? "Ausgabe" : "Output"}</h2>
      <output data-html={value} data-changes={changes} className="block font-mono text-sm break-all">
        {value}
      </output>
      <h2 className="mt-6 font-semibold">{language === "de" ? "Vorschau" : "Preview"}</h2>
      {preview !== null && <div data-preview dangerouslySetInnerHTML={{ __html: preview }} />}
    </main>
  );
}
