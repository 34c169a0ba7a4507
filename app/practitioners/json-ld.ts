import type { PractitionerSummary } from "./directory";

/**
 * schema.org data for a profile: a practice is a MedicalBusiness; a named person with a "Dr." is an
 * IndividualPhysician. Address and geo coordinates help search engines place it.
 */
export function practitionerJsonLd(p: PractitionerSummary, url: string) {
  const isPhysician = /\bdr\.?\s/i.test(p.name);
  return {
    "@context": "https://schema.org",
    "@type": isPhysician ? "IndividualPhysician" : "MedicalBusiness",
    name: p.name,
    url,
    ...(p.description ? { description: p.description } : {}),
    ...(p.speciality ? { medicalSpecialty: p.speciality } : {}),
    address: {
      "@type": "PostalAddress",
      ...(p.street ? { streetAddress: [p.street, p.adress2].filter(Boolean).join(", ") } : {}),
      ...(p.zip ? { postalCode: p.zip } : {}),
      addressLocality: p.city,
      addressCountry: p.country,
    },
    ...(p.coords ? { geo: { "@type": "GeoCoordinates", latitude: p.coords.latitude, longitude: p.coords.longitude } } : {}),
    ...(p.languages.length ? { knowsLanguage: p.languages } : {}),
    ...(p.website ? { sameAs: [p.website] } : {}),
  };
}
