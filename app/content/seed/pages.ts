/**
 * Demo pages in German and English, each assembled from blocks. All texts, people and addresses
 * are fictional.
 */
import { KASSEL } from "./theme";
import { type DemoItem, type Lang, type Localized, geo, iv, perLang } from "./helpers";

/** Block fields as the page stores them, before the page adds the stable block id. */
type BlockInput = { schemaId: string } & Record<string, unknown>;

/** Picks the text for the language being built. */
type Pick = <T>(de: T, en: T) => T;

interface BuildContext {
  lang: Lang;
  t: Pick;
  /** Internal link: German paths live at the root, English ones under /en. */
  href: (dePath: string, enPath: string) => string;
}

interface Seo {
  seotitle: string;
  slug: string;
  description: string;
}

interface PageSpec {
  key: string;
  status?: "Draft";
  critical?: boolean;
  theme: string;
  background?: string;
  /** Where the page appears in the site menus, and in which position. */
  nav?: ["header" | "footer", number];
  title: Localized<string>;
  seo: Localized<Seo>;
  blocks: (ctx: BuildContext) => BlockInput[];
}

/* Block builders: one per block schema, so the field names are written once. */

const hero = (f: { heading: string; text?: string; image?: string; ctaLabel?: string; ctaLink?: string }): BlockInput => ({
  schemaId: "block-hero",
  heading: f.heading,
  ...(f.text === undefined ? {} : { text: f.text }),
  ...(f.image === undefined ? {} : { image: [f.image] }),
  ...(f.ctaLabel === undefined ? {} : { ctaLabel: f.ctaLabel }),
  ...(f.ctaLink === undefined ? {} : { ctaLink: f.ctaLink }),
});
const richtext = (html: string): BlockInput => ({ schemaId: "block-richtext", html });
const image = (asset: string, alt: string, caption?: string): BlockInput => ({
  schemaId: "block-image",
  image: [asset],
  alt,
  ...(caption === undefined ? {} : { caption }),
});
const columns = (cols: Array<{ heading: string; text: string; icon: string }>): BlockInput => ({
  schemaId: "block-columns",
  columns: cols,
});
const cta = (f: { heading: string; text?: string; label: string; link: string }): BlockInput => ({
  schemaId: "block-cta",
  heading: f.heading,
  ...(f.text === undefined ? {} : { text: f.text }),
  label: f.label,
  link: f.link,
});
const accordion = (heading: string, items: Array<[question: string, answer: string]>): BlockInput => ({
  schemaId: "block-accordion",
  heading,
  items: items.map(([question, answer]) => ({ question, answer })),
});
const iconlist = (heading: string, items: Array<[icon: string, text: string]>): BlockInput => ({
  schemaId: "block-iconlist",
  heading,
  items: items.map(([icon, text]) => ({ icon, text })),
});
const map = (heading: string, location: { latitude: number; longitude: number }, zoom: number): BlockInput => ({
  schemaId: "block-map",
  heading,
  location,
  zoom,
});
/** A section: blocks grouped under an optional heading, stacked or side by side. */
const section = (f: { heading?: string; layout: "stack" | "two-columns" | "three-columns"; blocks: BlockInput[] }): BlockInput => ({
  schemaId: "block-section",
  ...(f.heading === undefined ? {} : { heading: f.heading }),
  layout: f.layout,
  blocks: f.blocks,
});
const practitionerSingle = (id: string): BlockInput => ({ schemaId: "block-practitioner-single", practitioner: [id] });
const practitionerList = (heading: string, limit: number): BlockInput => ({ schemaId: "block-practitioner-list", heading, limit });
const practitionerSmalllist = (heading: string, limit: number): BlockInput => ({
  schemaId: "block-practitioner-smalllist",
  heading,
  limit,
});
const practitionerOverview = (heading: string, intro: string): BlockInput => ({
  schemaId: "block-practitioner-overview",
  heading,
  intro,
});
const bookAppointment = (heading: string, variant: "standard" | "edit"): BlockInput => ({
  schemaId: "block-book-appointment",
  heading,
  variant,
});
const practitionerRegistration = (heading: string, intro: string): BlockInput => ({
  schemaId: "block-practitioner-registration",
  heading,
  intro,
});

/* Pages ------------------------------------------------------------------------------------- */

const home: PageSpec = {
  key: "home",
  critical: true,
  theme: "theme-standard",
  background: "color-sand",
  title: { de: "Startseite", en: "Home" },
  seo: {
    de: {
      seotitle: "Praxisnetz – Behandelnde in Ihrer Nähe finden",
      slug: "home",
      description:
        "Physiotherapie, Osteopathie, Psychotherapie und mehr: Finden Sie geprüfte Praxen in Ihrer Nähe und buchen Sie freie Termine online.",
    },
    en: {
      seotitle: "Praxisnetz – find practitioners near you",
      slug: "home",
      description:
        "Physiotherapy, osteopathy, psychotherapy and more: find reviewed practices near you and book open appointments online.",
    },
  },
  blocks: ({ t, href }) => [
    hero({
      heading: t("Gute Behandlung beginnt in Ihrer Nähe", "Good care starts close to home"),
      text: t(
        "Praxisnetz verbindet Sie mit Physiotherapie, Osteopathie, Psychotherapie und vielen weiteren Fachrichtungen – geprüft, übersichtlich und mit freien Terminen.",
        "Praxisnetz connects you with physiotherapists, osteopaths, psychotherapists and many other practitioners – reviewed, easy to browse and with open appointments.",
      ),
      image: "asset-hero",
      ctaLabel: t("Behandelnde finden", "Find a practitioner"),
      ctaLink: href("/behandelnde", "/en/find-a-practitioner"),
    }),
    columns([
      {
        icon: "search",
        heading: t("Finden", "Search"),
        text: t(
          "Suchen Sie nach Fachrichtung, Ort oder Sprache und sehen Sie alle Praxen auf der Karte.",
          "Search by speciality, town or language and see every practice on the map.",
        ),
      },
      {
        icon: "calendar",
        heading: t("Termin buchen", "Book"),
        text: t(
          "Viele Praxen bieten freie Termine direkt online an – ohne Warteschleife am Telefon.",
          "Many practices offer open slots online – no waiting on the phone.",
        ),
      },
      {
        icon: "heart",
        heading: t("Gut begleitet", "Well looked after"),
        text: t(
          "Unser Team sichtet jeden Eintrag, bevor er im Verzeichnis erscheint.",
          "Our team reviews every entry before it appears in the directory.",
        ),
      },
    ]),
    practitionerSmalllist(t("Neu im Netzwerk", "New in the network"), 5),
    cta({
      heading: t("Sie behandeln selbst?", "Are you a practitioner?"),
      text: t(
        "Tragen Sie Ihre Praxis kostenlos ein und werden Sie von Patientinnen und Patienten in Ihrer Region gefunden.",
        "List your practice for free and let patients in your area find you.",
      ),
      label: t("Praxis eintragen", "List your practice"),
      link: href("/practitioners/register", "/en/practitioners/register"),
    }),
    richtext(
      t(
        "<h2>Über das Praxisnetz</h2>" +
          "<p>Das Praxisnetz ist ein unabhängiges Verzeichnis für Gesundheitsberufe. Wir möchten, dass Sie schnell die richtige Ansprechperson finden – in Ihrer Sprache und in Ihrer Nähe.</p>" +
          "<ul><li><strong>Kostenlos</strong> für Patientinnen und Patienten</li><li><strong>Keine bezahlten Platzierungen</strong> in der Suche</li><li><strong>Mehrsprachig</strong>: Praxen geben an, in welchen Sprachen sie behandeln</li></ul>" +
          '<p>Mehr über uns lesen Sie auf der Seite <a href="/ueber-uns">Über uns</a>.</p>',
        "<h2>About Praxisnetz</h2>" +
          "<p>Praxisnetz is an independent directory for health professionals. We want you to find the right person quickly – in your language and close to where you live.</p>" +
          "<ul><li><strong>Free</strong> for patients</li><li><strong>No paid rankings</strong> in search results</li><li><strong>Multilingual</strong>: practices say which languages they treat in</li></ul>" +
          '<p>Read more on our <a href="/en/about-us">About us</a> page.</p>',
      ),
    ),
  ],
};

const about: PageSpec = {
  key: "about",
  nav: ["header", 1],
  theme: "theme-standard",
  background: "color-weiss",
  title: { de: "Über uns", en: "About us" },
  seo: {
    de: {
      seotitle: "Über uns – Praxisnetz",
      slug: "ueber-uns",
      description: "Wer hinter dem Praxisnetz steht, wie wir arbeiten und was uns bei einem fairen Verzeichnis für Gesundheitsberufe wichtig ist.",
    },
    en: {
      seotitle: "About us – Praxisnetz",
      slug: "about-us",
      description: "Who is behind Praxisnetz, how we work and what matters to us in a fair directory for health professionals.",
    },
  },
  blocks: ({ t, href }) => [
    // Text beside the picture: a section in two columns (one column on phones).
    section({
      heading: t("Wer wir sind", "Who we are"),
      layout: "two-columns",
      blocks: [
        richtext(
          t(
            "<p>Das Praxisnetz entstand 2019 in Kassel aus einer einfachen Beobachtung: Wer eine Physiotherapeutin oder einen Osteopathen sucht, verbringt oft Stunden am Telefon. Eine Physiotherapeutin und ein Webentwickler haben daraus ein Verzeichnis gemacht, das Praxen und Patientinnen direkt zusammenbringt.</p>" +
              "<p>Heute kümmert sich ein kleines Team um Redaktion, Technik und die Prüfung neuer Einträge.</p>" +
              "<p>Montags trifft sich das Team zum Frühstück und liest gemeinsam, was Praxen und Patientinnen in der Woche zuvor geschrieben haben.</p>",
            "<p>Praxisnetz started in Kassel in 2019 from a simple observation: anyone looking for a physiotherapist or an osteopath often spends hours on the phone. A physiotherapist and a web developer turned that into a directory that brings practices and patients together directly.</p>" +
              "<p>Today a small team looks after editing, technology and the review of new entries.</p>" +
              "<p>On Mondays the team meets for breakfast and reads together what practices and patients wrote to us the week before.</p>",
          ),
        ),
        image(
          "asset-team",
          t("Illustration: drei abstrakte Figuren stehen nebeneinander", "Illustration: three abstract figures standing side by side"),
          t("Unser Team in Kassel (Illustration)", "Our team in Kassel (illustration)"),
        ),
      ],
    }),
    iconlist(t("Was uns wichtig ist", "What matters to us"), [
      ["check", t("Unabhängig: Einträge sind kostenlos, es gibt keine gekauften Platzierungen.", "Independent: listings are free and rankings cannot be bought.")],
      ["globe", t("Mehrsprachig: Sie sehen auf einen Blick, wer in Ihrer Sprache behandelt.", "Multilingual: see at a glance who treats in your language.")],
      ["leaf", t("Datensparsam: Wir erheben nur, was für Suche und Buchung nötig ist.", "Data-minimal: we collect only what search and booking need.")],
      ["heart", t("Persönlich: Jede Praxis wird von einem Menschen geprüft, nicht von einem Algorithmus.", "Personal: every practice is reviewed by a person, not an algorithm.")],
    ]),
    practitionerList(t("Aus unserem Netzwerk", "From our network"), 6),
    map(t("Hier finden Sie uns", "Where to find us"), geo(KASSEL.latitude + 0.0008, KASSEL.longitude - 0.0012), 15),
    cta({
      heading: t("Fragen oder Anregungen?", "Questions or ideas?"),
      text: t("Wir freuen uns über Rückmeldungen von Patientinnen, Patienten und Praxen.", "We welcome feedback from patients and practices alike."),
      label: t("Schreiben Sie uns", "Write to us"),
      link: "mailto:kontakt@example.org",
    }),
    cta({
      heading: t("Lieber direkt suchen?", "Rather start searching?"),
      label: t("Zur Übersicht", "To the overview"),
      link: href("/behandelnde", "/en/find-a-practitioner"),
    }),
  ],
};

const practitioners: PageSpec = {
  key: "practitioners",
  nav: ["header", 2],
  theme: "theme-standard",
  background: "color-weiss",
  title: { de: "Behandelnde", en: "Practitioners" },
  seo: {
    de: {
      seotitle: "Behandelnde finden – Praxisnetz",
      slug: "behandelnde",
      description: "Alle Praxen im Praxisnetz: nach Ort, Fachrichtung und Sprache filtern, auf der Karte ansehen und Profile vergleichen.",
    },
    en: {
      seotitle: "Find practitioners – Praxisnetz",
      slug: "find-a-practitioner",
      description: "Every practice in Praxisnetz: filter by town, speciality and language, view them on the map and compare profiles.",
    },
  },
  blocks: ({ t }) => [
    practitionerOverview(
      t("Behandelnde finden", "Find a practitioner"),
      t(
        "Blättern Sie durch alle Praxen im Netzwerk oder grenzen Sie die Auswahl nach Ort, Fachrichtung und Sprache ein.",
        "Browse every practice in the network or narrow the list by town, speciality and language.",
      ),
    ),
    richtext(
      t(
        "<h2>So kommen Einträge ins Verzeichnis</h2>" +
          "<p>Behandelnde registrieren sich selbst. Bevor ein Profil sichtbar wird, prüfen wir Berufsbezeichnung und Praxisanschrift. Kontaktdaten wie E-Mail-Adresse und Telefonnummer bleiben privat und werden nur für Rückfragen genutzt.</p>",
        "<h2>How entries get into the directory</h2>" +
          "<p>Practitioners register themselves. Before a profile goes live we check the professional title and the practice address. Contact details such as email address and phone number stay private and are only used for queries.</p>",
      ),
    ),
    practitionerRegistration(
      t("Ihre Praxis fehlt?", "Is your practice missing?"),
      t(
        "Füllen Sie das Formular aus. Wir melden uns innerhalb von drei Werktagen bei Ihnen.",
        "Fill in the form and we will get back to you within three working days.",
      ),
    ),
  ],
};

const newsletter: PageSpec = {
  key: "newsletter",
  nav: ["header", 5],
  theme: "theme-ruhig",
  background: "color-nebel",
  title: { de: "Newsletter", en: "Newsletter" },
  seo: {
    de: {
      seotitle: "Newsletter – Praxisnetz",
      // Not "newsletter": /newsletter/{email} is the subscription's own route (app/site/reserved.ts).
      slug: "newsletter-anmeldung",
      description: "Einmal im Monat: neue Praxen in Ihrer Region, saisonale Gesundheitstipps und Neuigkeiten aus dem Praxisnetz.",
    },
    en: {
      seotitle: "Newsletter – Praxisnetz",
      slug: "newsletter-signup",
      description: "Once a month: new practices in your area, seasonal health tips and news from Praxisnetz.",
    },
  },
  blocks: ({ t }) => [
    richtext(
      t(
        "<h2>Der Praxisnetz-Newsletter</h2>" +
          "<p>Einmal im Monat schicken wir eine kurze E-Mail mit Neuigkeiten aus dem Netzwerk. Sie entscheiden, ob Sie lieber auf Deutsch oder auf Englisch lesen.</p>" +
          "<p>Die Anmeldung erfolgt im <strong>Double-Opt-in-Verfahren</strong>: Erst nach Klick auf den Bestätigungslink erhalten Sie den Newsletter.</p>",
        "<h2>The Praxisnetz newsletter</h2>" +
          "<p>Once a month we send a short email with news from the network. You choose whether to read it in German or in English.</p>" +
          "<p>Sign-up uses <strong>double opt-in</strong>: you only receive the newsletter after clicking the confirmation link.</p>",
      ),
    ),
    iconlist(t("Das erwartet Sie", "What you get"), [
      ["mail", t("Eine Ausgabe pro Monat, keine Werbung von Dritten", "One issue a month, no third-party advertising")],
      ["leaf", t("Saisonale Gesundheitstipps aus den Praxen", "Seasonal health tips from our practices")],
      ["map-pin", t("Neue Behandelnde in Ihrer Region", "New practitioners in your area")],
      ["check", t("Abmeldung jederzeit mit einem Klick", "Unsubscribe at any time with one click")],
    ]),
    cta({
      heading: t("Jetzt anmelden", "Sign up now"),
      text: t(
        "Schreiben Sie uns eine kurze E-Mail – wir tragen Sie ein und schicken Ihnen den Bestätigungslink.",
        "Send us a short email – we will add you and send you the confirmation link.",
      ),
      label: t("E-Mail schreiben", "Write an email"),
      link: "mailto:newsletter@example.org?subject=Newsletter",
    }),
  ],
};

const appointments: PageSpec = {
  key: "appointments",
  nav: ["header", 3],
  theme: "theme-standard",
  title: { de: "Termine", en: "Appointments" },
  seo: {
    de: {
      seotitle: "Termin online buchen – Praxisnetz",
      slug: "termine",
      description: "Freie Termine bei Praxen aus dem Praxisnetz ansehen und direkt online buchen – mit Bestätigung per E-Mail.",
    },
    en: {
      seotitle: "Book an appointment online – Praxisnetz",
      slug: "appointments",
      description: "See open appointments at Praxisnetz practices and book them online – with confirmation by email.",
    },
  },
  blocks: ({ t }) => [
    hero({
      heading: t("Termin online buchen", "Book an appointment online"),
      text: t(
        "Wählen Sie eine Praxis und einen freien Termin. Die Bestätigung kommt per E-Mail.",
        "Choose a practice and an open slot. You will receive a confirmation by email.",
      ),
      image: "asset-practice-room",
    }),
    bookAppointment(t("Freie Termine", "Open appointments"), "standard"),
    accordion(t("Häufige Fragen zur Buchung", "Booking FAQ"), [
      [
        t("Ist die Buchung verbindlich?", "Is my booking binding?"),
        t(
          "Ja. Wenn Sie nicht kommen können, sagen Sie bitte mindestens 24 Stunden vorher ab, damit andere den Termin nutzen können.",
          "Yes. If you cannot come, please cancel at least 24 hours in advance so someone else can take the slot.",
        ),
      ],
      [
        t("Wie sage ich einen Termin ab?", "How do I cancel?"),
        t(
          "Antworten Sie auf die Bestätigungs-E-Mail oder rufen Sie direkt in der Praxis an.",
          "Reply to the confirmation email or call the practice directly.",
        ),
      ],
      [
        t("Übernimmt meine Krankenkasse die Kosten?", "Will my health insurance pay?"),
        t(
          "Das hängt von Leistung, Verordnung und Versicherung ab. Fragen Sie im Zweifel vorab bei Ihrer Kasse nach.",
          "That depends on the treatment, prescription and insurer. If in doubt, ask your insurer beforehand.",
        ),
      ],
      [
        t("Welche Zeitzone gilt?", "Which time zone applies?"),
        t("Alle Zeiten sind deutsche Ortszeit (Europe/Berlin).", "All times are German local time (Europe/Berlin)."),
      ],
    ]),
  ],
};

const imprint: PageSpec = {
  key: "imprint",
  nav: ["footer", 1],
  theme: "theme-ruhig",
  background: "color-weiss",
  title: { de: "Impressum", en: "Imprint" },
  seo: {
    de: {
      seotitle: "Impressum – Praxisnetz",
      slug: "impressum",
      description: "Anbieterkennzeichnung der Praxisnetz Demo GmbH, Kassel.",
    },
    en: {
      seotitle: "Imprint – Praxisnetz",
      slug: "imprint",
      description: "Legal notice of Praxisnetz Demo GmbH, Kassel.",
    },
  },
  blocks: ({ t }) => [
    richtext(
      t(
        "<h2>Angaben gemäß § 5 DDG</h2>" +
          "<p><strong>Praxisnetz Demo GmbH</strong><br>Beispielweg 12<br>34117 Kassel<br>Deutschland</p>" +
          "<p>Vertreten durch die Geschäftsführerin Miriam Sommerfeld</p>" +
          "<p>Registergericht: Amtsgericht Kassel, HRB 00000<br>Umsatzsteuer-Identifikationsnummer: DE000000000</p>" +
          "<h2>Kontakt</h2>" +
          '<p>Telefon: +49 561 00000000<br>E-Mail: <a href="mailto:kontakt@example.org">kontakt@example.org</a></p>' +
          "<h2>Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV</h2>" +
          "<p>Miriam Sommerfeld, Anschrift wie oben</p>" +
          "<h2>Verbraucherstreitbeilegung</h2>" +
          "<p>Wir sind nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.</p>" +
          "<h2>Hinweis</h2>" +
          "<p>Dies ist eine Demo-Website. Firma, Personen, Anschriften und Registerangaben sind frei erfunden.</p>",
        "<h2>Information pursuant to § 5 DDG (German Digital Services Act)</h2>" +
          "<p><strong>Praxisnetz Demo GmbH</strong><br>Beispielweg 12<br>34117 Kassel<br>Germany</p>" +
          "<p>Represented by the managing director Miriam Sommerfeld</p>" +
          "<p>Register court: Amtsgericht Kassel, HRB 00000<br>VAT identification number: DE000000000</p>" +
          "<h2>Contact</h2>" +
          '<p>Phone: +49 561 00000000<br>Email: <a href="mailto:kontakt@example.org">kontakt@example.org</a></p>' +
          "<h2>Responsible for content under § 18 (2) MStV</h2>" +
          "<p>Miriam Sommerfeld, address as above</p>" +
          "<h2>Consumer dispute resolution</h2>" +
          "<p>We are neither willing nor obliged to take part in dispute resolution proceedings before a consumer arbitration board.</p>" +
          "<h2>Note</h2>" +
          "<p>This is a demo website. The company, people, addresses and register details are fictional.</p>",
      ),
    ),
  ],
};

const privacy: PageSpec = {
  key: "privacy",
  nav: ["footer", 2],
  theme: "theme-ruhig",
  background: "color-weiss",
  title: { de: "Datenschutz", en: "Privacy" },
  seo: {
    de: {
      seotitle: "Datenschutzerklärung – Praxisnetz",
      slug: "datenschutz",
      description: "Wie das Praxisnetz personenbezogene Daten verarbeitet: Server-Logs, Cookies und Einwilligung, Terminbuchung, Registrierung, Newsletter und Ihre Rechte.",
    },
    en: {
      seotitle: "Privacy policy – Praxisnetz",
      slug: "privacy",
      description: "How Praxisnetz processes personal data: server logs, cookies and consent, booking, registration, newsletter and your rights.",
    },
  },
  blocks: ({ t }) => [
    richtext(
      t(
        "<h2>1. Verantwortliche Stelle</h2>" +
          '<p>Verantwortlich für die Datenverarbeitung auf dieser Website ist die Praxisnetz Demo GmbH, Beispielweg 12, 34117 Kassel, E-Mail: <a href="mailto:datenschutz@example.org">datenschutz@example.org</a>.</p>' +
          "<h2>2. Aufruf der Website</h2>" +
          "<p>Beim Aufruf jeder Seite verarbeitet unser Server technisch notwendige Daten: IP-Adresse, Datum und Uhrzeit, aufgerufene Adresse, Browsertyp und Statuscode. Rechtsgrundlage ist unser berechtigtes Interesse an einem sicheren Betrieb (Art. 6 Abs. 1 lit. f DSGVO). Die Protokolle werden nach sieben Tagen gelöscht.</p>" +
          "<h2>3. Cookies und Einwilligung</h2>" +
          "<p>Beim ersten Besuch fragen wir Sie, welchen Kategorien Sie zustimmen. Ihre Auswahl speichern wir in einem Cookie, damit wir nicht erneut fragen müssen. Sie können sie jederzeit über den Link „Cookie-Einstellungen“ in der Fußzeile ändern.</p>" +
          "<ul>" +
          "<li><strong>Notwendig</strong> (immer aktiv): Anmeldung im Verwaltungsbereich, Speichern Ihrer Einwilligung, Schutz vor Missbrauch.</li>" +
          "<li><strong>Funktional</strong>: Kartenkacheln für die Praxisübersicht. Dabei wird Ihre IP-Adresse an den Kartendienst übermittelt.</li>" +
          "<li><strong>Statistik</strong>: anonyme Reichweitenmessung mit Plausible, ohne Cookies und ohne Profilbildung, auf unserem eigenen Server.</li>" +
          "<li><strong>Marketing</strong>: derzeit nicht im Einsatz.</li>" +
          "<li><strong>Nicht klassifiziert</strong>: Dienste, die wir noch keiner Kategorie zugeordnet haben. Sie werden nur nach Ihrer Zustimmung geladen.</li>" +
          "</ul>" +
          "<p>Rechtsgrundlage für alles außer den notwendigen Diensten ist Ihre Einwilligung (§ 25 Abs. 1 TDDDG, Art. 6 Abs. 1 lit. a DSGVO). Ein Widerruf gilt für die Zukunft.</p>",
        "<h2>1. Controller</h2>" +
          '<p>The controller for data processing on this website is Praxisnetz Demo GmbH, Beispielweg 12, 34117 Kassel, Germany, email: <a href="mailto:datenschutz@example.org">datenschutz@example.org</a>.</p>' +
          "<h2>2. Visiting the website</h2>" +
          "<p>Whenever a page is requested, our server processes technically necessary data: IP address, date and time, requested address, browser type and status code. The legal basis is our legitimate interest in operating the site securely (Art. 6(1)(f) GDPR). Logs are deleted after seven days.</p>" +
          "<h2>3. Cookies and consent</h2>" +
          "<p>On your first visit we ask which categories you agree to. We store your choice in a cookie so we do not have to ask again. You can change it at any time via the “Cookie settings” link in the footer.</p>" +
          "<ul>" +
          "<li><strong>Necessary</strong> (always on): signing in to the admin area, storing your consent, protection against abuse.</li>" +
          "<li><strong>Functional</strong>: map tiles for the practice overview. Your IP address is sent to the map provider.</li>" +
          "<li><strong>Statistics</strong>: anonymous audience measurement with Plausible, without cookies or profiling, on our own server.</li>" +
          "<li><strong>Marketing</strong>: not used at present.</li>" +
          "<li><strong>Unclassified</strong>: services we have not yet assigned to a category. They load only after you consent.</li>" +
          "</ul>" +
          "<p>For everything except necessary services, the legal basis is your consent (§ 25(1) TDDDG, Art. 6(1)(a) GDPR). Withdrawing consent applies from then on.</p>",
      ),
    ),
    richtext(
      t(
        "<h2>4. Terminbuchung</h2>" +
          "<p>Wenn Sie einen Termin buchen, verarbeiten wir Name, E-Mail-Adresse, optional Telefonnummer und Ihre Nachricht, um den Termin an die Praxis weiterzugeben (Art. 6 Abs. 1 lit. b DSGVO). Bitte schreiben Sie keine Gesundheitsdaten in das Nachrichtenfeld, die die Praxis nicht vorab wissen muss.</p>" +
          "<h2>5. Registrierung von Behandelnden</h2>" +
          "<p>Für ein Profil verarbeiten wir Name, Praxisanschrift, Fachrichtung, Sprachen und Kontaktdaten. Name, Anschrift, Fachrichtung und Sprachen werden öffentlich angezeigt, E-Mail-Adresse und Telefonnummer nicht.</p>" +
          "<h2>6. Newsletter</h2>" +
          "<p>Für den Newsletter benötigen wir nur Ihre E-Mail-Adresse. Wir nutzen das Double-Opt-in-Verfahren und speichern Zeitpunkt der Anmeldung und Bestätigung als Nachweis. Jede Ausgabe enthält einen Abmeldelink.</p>" +
          "<h2>7. Speicherdauer</h2>" +
          "<p>Buchungsdaten löschen wir drei Monate nach dem Termin, Profildaten nach Löschung des Profils, Newsletter-Daten nach der Abmeldung – soweit keine gesetzlichen Aufbewahrungspflichten entgegenstehen.</p>" +
          "<h2>8. Ihre Rechte</h2>" +
          "<p>Sie haben das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung, Datenübertragbarkeit und Widerspruch (Art. 15–21 DSGVO). Außerdem können Sie sich bei einer Datenschutz-Aufsichtsbehörde beschweren, zum Beispiel beim Hessischen Beauftragten für Datenschutz und Informationsfreiheit.</p>" +
          "<p><em>Stand: Demo-Fassung. Diese Erklärung ist ein Beispieltext und keine Rechtsberatung.</em></p>",
        "<h2>4. Booking appointments</h2>" +
          "<p>When you book an appointment we process your name, email address, optionally your phone number and your message in order to pass the booking on to the practice (Art. 6(1)(b) GDPR). Please do not put health information into the message field that the practice does not need in advance.</p>" +
          "<h2>5. Practitioner registration</h2>" +
          "<p>For a profile we process name, practice address, speciality, languages and contact details. Name, address, speciality and languages are shown publicly; email address and phone number are not.</p>" +
          "<h2>6. Newsletter</h2>" +
          "<p>For the newsletter we only need your email address. We use double opt-in and keep the time of sign-up and confirmation as proof. Every issue contains an unsubscribe link.</p>" +
          "<h2>7. Retention</h2>" +
          "<p>We delete booking data three months after the appointment, profile data when the profile is deleted and newsletter data when you unsubscribe – unless statutory retention periods require otherwise.</p>" +
          "<h2>8. Your rights</h2>" +
          "<p>You have the right of access, rectification, erasure, restriction of processing, data portability and objection (Art. 15–21 GDPR). You may also lodge a complaint with a data protection supervisory authority, for example the Hessian Commissioner for Data Protection and Freedom of Information.</p>" +
          "<p><em>Version: demo text. This policy is sample text and not legal advice.</em></p>",
      ),
    ),
  ],
};

const guideBackPain: PageSpec = {
  key: "guide-back-pain",
  nav: ["header", 4],
  theme: "theme-standard",
  background: "color-sand",
  title: { de: "Ratgeber: Rückenschmerzen", en: "Guide: back pain" },
  seo: {
    de: {
      seotitle: "Rückenschmerzen: Was wirklich hilft – Ratgeber",
      slug: "ratgeber/rueckenschmerzen",
      description: "Bewegung statt Bettruhe, Warnzeichen erkennen, passende Behandlung finden: unser Ratgeber zu Rückenschmerzen mit Praxen in Ihrer Nähe.",
    },
    en: {
      seotitle: "Back pain: what really helps – Guide",
      slug: "guide/back-pain",
      description: "Movement rather than bed rest, recognising warning signs, finding the right treatment: our guide to back pain, with practices near you.",
    },
  },
  blocks: ({ t, href }) => [
    hero({
      heading: t("Rückenschmerzen: Was wirklich hilft", "Back pain: what really helps"),
      text: t(
        "Fast jede und jeder hat irgendwann Rückenschmerzen. Meist sind sie harmlos und bessern sich innerhalb weniger Wochen.",
        "Almost everyone gets back pain at some point. Most of the time it is harmless and improves within a few weeks.",
      ),
      image: "asset-practice-room",
    }),
    richtext(
      t(
        "<h2>Das Wichtigste in Kürze</h2>" +
          "<ul><li><strong>In Bewegung bleiben:</strong> Leichte Alltagsaktivität hilft meist mehr als Schonung.</li><li><strong>Wärme</strong> kann verspannte Muskeln lockern.</li><li><strong>Geduld:</strong> Die meisten Beschwerden klingen von selbst ab.</li></ul>" +
          "<p>Dieser Ratgeber ersetzt keine ärztliche Untersuchung. Wenn die Schmerzen sehr stark sind oder nicht besser werden, lassen Sie sich bitte untersuchen.</p>",
        "<h2>Key points</h2>" +
          "<ul><li><strong>Keep moving:</strong> gentle everyday activity usually helps more than rest.</li><li><strong>Heat</strong> can relax tense muscles.</li><li><strong>Patience:</strong> most symptoms ease on their own.</li></ul>" +
          "<p>This guide does not replace a medical examination. If the pain is severe or does not improve, please get checked.</p>",
      ),
    ),
    accordion(t("Häufige Fragen", "Frequently asked questions"), [
      [
        t("Wann sollte ich sofort ärztliche Hilfe holen?", "When should I get medical help straight away?"),
        t(
          "Bei Lähmungserscheinungen, Taubheit im Gesäß- oder Genitalbereich, Problemen beim Wasserlassen, Fieber oder nach einem Sturz oder Unfall.",
          "If you notice weakness in the legs, numbness around the buttocks or genitals, problems passing urine, fever, or pain after a fall or accident.",
        ),
      ],
      [
        t("Bettruhe oder Bewegung?", "Bed rest or movement?"),
        t(
          "Bewegung. Spaziergänge und gewohnte Tätigkeiten in angepasstem Tempo fördern die Heilung; lange Bettruhe verzögert sie eher.",
          "Movement. Walks and normal activities at a comfortable pace support recovery; long bed rest tends to slow it down.",
        ),
      ],
      [
        t("Welche Behandlung passt zu mir?", "Which treatment is right for me?"),
        t(
          "Physiotherapie hilft mit gezielten Übungen, Osteopathie arbeitet mit den Händen an Verspannungen. Halten die Schmerzen länger als sechs Wochen an, ist eine ärztliche Abklärung sinnvoll.",
          "Physiotherapy helps with targeted exercises; osteopathy works on tension by hand. If the pain lasts longer than six weeks, see a doctor.",
        ),
      ],
      [
        t("Hilft Wärme wirklich?", "Does heat really help?"),
        t(
          "Viele empfinden Wärmflasche oder warmes Bad als angenehm. Es lindert Verspannungen, heilt aber keine Ursache.",
          "Many people find a hot-water bottle or a warm bath soothing. It eases tension but does not treat the cause.",
        ),
      ],
    ]),
    practitionerSingle("prac-001"),
    practitionerSmalllist(t("Physiotherapie in Ihrer Nähe", "Physiotherapy near you"), 3),
    cta({
      heading: t("Termin vereinbaren", "Make an appointment"),
      text: t("Viele Praxen haben in den nächsten Tagen freie Termine.", "Many practices have open slots in the coming days."),
      label: t("Freie Termine ansehen", "See open appointments"),
      link: href("/termine", "/en/appointments"),
    }),
  ],
};

const draftSummer: PageSpec = {
  key: "draft-summer",
  status: "Draft",
  theme: "theme-ruhig",
  title: { de: "Sommeraktion (Entwurf)", en: "Summer campaign (draft)" },
  seo: {
    de: {
      seotitle: "Sommeraktion – Praxisnetz",
      slug: "entwurf-sommeraktion",
      description: "Entwurf: Bewegt durch den Sommer mit Kursen aus dem Praxisnetz.",
    },
    en: {
      seotitle: "Summer campaign – Praxisnetz",
      slug: "draft-summer-campaign",
      description: "Draft: an active summer with classes from Praxisnetz.",
    },
  },
  blocks: ({ t, href }) => [
    hero({
      heading: t("Bewegt durch den Sommer", "An active summer"),
      text: t(
        "Entwurf – noch nicht veröffentlichen. Kurse im Freien mit Praxen aus dem Netzwerk.",
        "Draft – do not publish yet. Outdoor classes with practices from the network.",
      ),
      image: "asset-hero",
      ctaLabel: t("Kurse ansehen", "See classes"),
      ctaLink: href("/behandelnde", "/en/find-a-practitioner"),
    }),
    cta({
      heading: t("Platz sichern", "Save your place"),
      label: t("Termin buchen", "Book"),
      link: href("/termine", "/en/appointments"),
    }),
  ],
};

const PAGES: PageSpec[] = [home, about, practitioners, newsletter, appointments, imprint, privacy, guideBackPain, draftSummer];

/** Short readable block names for ids, e.g. "block-practitioner-smalllist" → "practitioner-smalllist". */
function blockIdPart(schemaId: string): string {
  return schemaId.replace(/^block-/, "");
}

/** A block with its stable id, and a section's children with theirs (the section's id, then their position). */
function withIds({ schemaId, ...fields }: BlockInput, prefix: string): BlockInput & { id: string } {
  const id = `${prefix}-${blockIdPart(schemaId)}`;
  const children = Array.isArray(fields["blocks"]) ? { blocks: (fields["blocks"] as BlockInput[]).map((child, index) => withIds(child, `${id}-${index + 1}`)) } : {};
  return { schemaId, id, ...fields, ...children };
}

function pageItem(spec: PageSpec): DemoItem {
  const blocks = perLang((lang) => {
    const t: Pick = (de, en) => (lang === "de" ? de : en);
    const href = (dePath: string, enPath: string): string => (lang === "de" ? dePath : enPath);
    return spec.blocks({ lang, t, href }).map((block, index) => withIds(block, `${spec.key}-${lang}-${index + 1}`));
  });
  const seo = perLang((lang) => ({ schemaId: "component-seo", ...spec.seo[lang] }));

  return {
    schema: "core-pages",
    id: `page-${spec.key}`,
    status: spec.status ?? "Published",
    data: {
      title: { ...spec.title },
      critical: iv(spec.critical ?? false),
      seo,
      themesettings: iv([spec.theme]),
      ...(spec.background === undefined ? {} : { backgroundColor: iv([spec.background]) }),
      blocks,
      navigation: iv(spec.nav?.[0] ?? "none"),
      navigationOrder: iv(spec.nav?.[1] ?? 0),
    },
  };
}

export const pageItems: DemoItem[] = PAGES.map(pageItem);
