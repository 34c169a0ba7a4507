import { Link } from "react-router";
import type { Route } from "./+types/practitioner";
import { localizedPath, splitLanguage } from "~/i18n/languages";
import { messages } from "~/i18n/messages";
import { notFound } from "~/site/page.server";
import { FreeAppointments, PractitionerMap } from "~/practitioners/components";
import { profilePath } from "~/practitioners/paths";
import { practitionerJsonLd } from "~/practitioners/json-ld";
import { loadFreeSlots, practitionerBySlug, practitionerNeighbours, practitionerPhoto } from "~/practitioners/practitioners.server";
import { SLUG_PATTERN } from "~/content/slug";
import { originOf, seoMeta } from "~/site/seo";
import { useSite } from "~/site/site-context";

/** A practitioner's profile, found by the slug of their name; hidden and other-site ones are 404. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const slug = params.practitionername;
  if (!SLUG_PATTERN.test(slug)) notFound(url.pathname);
  const practitioner = await practitionerBySlug(context, language, slug);
  if (!practitioner) notFound(url.pathname);
  const [neighbours, appointments, photo] = await Promise.all([
    practitionerNeighbours(context, language, practitioner.id),
    context.services.env.SITE_VARIANT === "booking" ? loadFreeSlots(context, { practitioners: [practitioner.id], limit: 8 }) : [],
    practitionerPhoto(context, practitioner.photo),
  ]);
  const around = neighbours ?? { previous: practitioner, next: practitioner };
  const origin = originOf(request, context);
  const alternates = { de: profilePath("de", slug), en: profilePath("en", slug) };
  return {
    language,
    practitioner,
    previous: { name: around.previous.name, href: profilePath(language, around.previous.slug) },
    next: { name: around.next.name, href: profilePath(language, around.next.slug) },
    appointments,
    photo,
    alternates,
    canonical: alternates[language],
    origin,
    jsonLd: practitionerJsonLd(practitioner, `${origin}${alternates[language]}`),
  };
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d
    ? seoMeta({
        title: `${d.practitioner.name} – ${d.practitioner.city}`,
        description: [d.practitioner.speciality, d.practitioner.city].filter(Boolean).join(", "),
        language: d.language,
        origin: d.origin,
        canonical: d.canonical,
        alternates: d.alternates,
      })
    : [];

export default function PractitionerProfile({ loaderData }: Route.ComponentProps) {
  const { practitioner: p, previous, next, appointments, jsonLd, photo } = loaderData;
  const { language } = useSite();
  const t = messages(language);
  return (
    <article className="mx-auto max-w-6xl px-4 py-10" data-profile={p.slug}>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }} />
      <nav aria-label={t.practitioners} className="mb-6 flex justify-between gap-4 text-sm">
        <Link to={previous.href} rel="prev" prefetch="intent" className="underline" data-previous>
          ← {t.previousPractitioner}: {previous.name}
        </Link>
        <Link to={next.href} rel="next" prefetch="intent" className="underline" data-next>
          {t.nextPractitioner}: {next.name} →
        </Link>
      </nav>
      {photo ? <ProfilePhoto photo={photo} name={p.name} /> : null}
      <h1 className="text-4xl font-bold tracking-tight">{p.name}</h1>
      {p.speciality ? <p className="mt-2 text-lg">{p.speciality}</p> : null}
      <div className="mt-8 grid gap-8 md:grid-cols-2">
        <div className="space-y-4">
          {p.description ? <p className="leading-relaxed">{p.description}</p> : null}
          <div>
            <h2 className="font-semibold">{t.address}</h2>
            <address className="not-italic">
              {p.street ? <>{p.street}<br /></> : null}
              {p.adress2 ? <>{p.adress2}<br /></> : null}
              {p.zip} {p.city}
              <br />
              {p.country}
            </address>
          </div>
          {p.languages.length ? (
            <p>
              <span className="font-semibold">{t.languagesSpoken}:</span> {p.languages.map((l) => l.toUpperCase()).join(", ")}
            </p>
          ) : null}
          {p.website ? (
            <p>
              <span className="font-semibold">{t.website}:</span>{" "}
              <a href={p.website} rel="noopener noreferrer" className="underline">
                {p.website.replace(/^https?:\/\//, "")}
              </a>
            </p>
          ) : null}
          <FreeAppointments slots={appointments} practitioner={p.id} limit={8} heading="h2" />
        </div>
        <div>
          <h2 className="sr-only">{t.map}</h2>
          <PractitionerMap practitioners={[p]} />
        </div>
      </div>
      <p className="mt-10">
        <Link to={localizedPath(language, "/practitioners")} className="font-semibold underline">
          {t.allPractitioners}
        </Link>
      </p>
    </article>
  );
}

/** Raster images the server scales (`?width=`, one of the asset variant widths); anything else is shown as it is. */
const SCALABLE = /^image\/(png|jpeg|webp|avif)$/;
const PHOTO_WIDTH = 320;

/** The profile's photo, 320 px wide (640 px for sharp screens), its height from the file's proportions. */
function ProfilePhoto({ photo, name }: { photo: { url: string; width?: number; height?: number; mimeType: string }; name: string }) {
  const width = PHOTO_WIDTH;
  const height = photo.width && photo.height ? Math.round((photo.height / photo.width) * width) : width;
  const scalable = SCALABLE.test(photo.mimeType) && !!photo.width && photo.width > width;
  const sharp = scalable && photo.width! > width * 2 ? `${photo.url}?width=${width * 2}` : photo.url;
  return (
    <img
      src={scalable ? `${photo.url}?width=${width}` : photo.url}
      srcSet={scalable ? `${photo.url}?width=${width} 1x, ${sharp} 2x` : undefined}
      alt={name}
      width={width}
      height={height}
      decoding="async"
      className="mb-6 h-auto w-80 max-w-full rounded object-cover"
      data-profile-photo
    />
  );
}
