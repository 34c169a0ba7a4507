import type { Route } from "./+types/present";
import { PRESENT_ASSET_ID } from "~/content/seed/assets";
import { splitLanguage, type Language } from "~/i18n/languages";
import { newsletterPath, presentPath } from "~/newsletter/form";
import { originOf, seoMeta } from "~/site/seo";

const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
export const headers = () => PRIVATE;

/** Which asset the present is: an app setting editors can change, the demo's PDF by default. */
export const PRESENT_SETTING = "newsletter-present-asset";

const texts = {
  de: {
    title: "Ihr Geschenk",
    thanks: "Danke, dass Sie unseren Newsletter lesen! Hier ist Ihr Geschenk:",
    download: "Herunterladen",
    missing: "Das Geschenk ist gerade nicht verfügbar. Bitte versuchen Sie es später noch einmal.",
    invite: "Dieses Geschenk erhalten Abonnent:innen unseres Newsletters. Melden Sie sich an – nach der Bestätigung schicken wir Ihnen den Link.",
    subscribe: "Zum Newsletter anmelden",
  },
  en: {
    title: "Your gift",
    thanks: "Thank you for reading our newsletter! Here is your gift:",
    download: "Download",
    missing: "The gift is not available right now. Please try again later.",
    invite: "This gift is for subscribers of our newsletter. Sign up, and once you have confirmed we send you the link.",
    subscribe: "Sign up for the newsletter",
  },
};

/**
 * The page a confirmed subscriber reaches from the welcome mail. The gift shows only when the link's
 * signed token names the address in the path and that address is confirmed; everyone else is invited
 * to subscribe (the same page for unknown, pending and unsubscribed addresses).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const email = (params.email ?? "").slice(0, 254);
  const { newsletter, store } = context.services;
  const check = newsletter.check("present", url.searchParams.get("token"), email);
  let present: { name: string; href: string; size: number } | null = null;
  let missing = false;
  if (check.ok && (await newsletter.isConfirmed(check.email))) {
    const assetId = (await store.getSetting(PRESENT_SETTING)) ?? PRESENT_ASSET_ID;
    const asset = await store.assets.get(assetId);
    if (asset) present = { name: asset.fileName, href: `/api/assets/${encodeURIComponent(asset.id)}/${encodeURIComponent(asset.slug)}`, size: asset.fileSize };
    else missing = true;
  }
  return {
    language,
    present,
    missing,
    subscribeHref: newsletterPath(language, check.ok ? check.email : ""),
    path: url.pathname,
    alternates: { de: presentPath("de", email), en: presentPath("en", email) } as Record<Language, string>,
    origin: originOf(request, context),
  };
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: texts[d.language].title, language: d.language, origin: d.origin, canonical: d.path, alternates: d.alternates, noindex: true }) : [];

export default function PresentPage({ loaderData: d }: Route.ComponentProps) {
  const t = texts[d.language];
  return (
    <div className="mx-auto max-w-2xl px-4 py-12" data-present={d.present ? "shown" : "invite"}>
      <h1 className="text-4xl font-bold tracking-tight">{t.title}</h1>
      {d.present ? (
        <>
          <p className="mt-4">{t.thanks}</p>
          <p className="mt-6">
            <a href={d.present.href} download className="inline-block rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white" data-present-download>
              {t.download}: {d.present.name} ({Math.max(1, Math.round(d.present.size / 1024))} KB)
            </a>
          </p>
        </>
      ) : d.missing ? (
        <p className="mt-4">{t.missing}</p>
      ) : (
        <>
          <p className="mt-4">{t.invite}</p>
          <p className="mt-6">
            <a href={d.subscribeHref} className="inline-block rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white">
              {t.subscribe}
            </a>
          </p>
        </>
      )}
    </div>
  );
}
