/**
 * Fictional practitioners. Names deliberately include umlauts, ß, Turkish and Polish letters, and one
 * name appears twice (in Köln and in Leipzig) to exercise slug collisions.
 */
import { type DemoItem, type GeoPoint, type Localized, geo, iv, loc } from "./helpers";

const CITIES = {
  berlin: { name: "Berlin", lat: 52.52, lon: 13.405 },
  muenchen: { name: "München", lat: 48.1372, lon: 11.5756 },
  koeln: { name: "Köln", lat: 50.9375, lon: 6.9603 },
  duesseldorf: { name: "Düsseldorf", lat: 51.2277, lon: 6.7735 },
  wuerzburg: { name: "Würzburg", lat: 49.7913, lon: 9.9534 },
  goettingen: { name: "Göttingen", lat: 51.5413, lon: 9.9158 },
  luebeck: { name: "Lübeck", lat: 53.8655, lon: 10.6866 },
  nuernberg: { name: "Nürnberg", lat: 49.4521, lon: 11.0767 },
  fuerth: { name: "Fürth", lat: 49.4771, lon: 10.9887 },
  goerlitz: { name: "Görlitz", lat: 51.1526, lon: 14.9872 },
  hamburg: { name: "Hamburg", lat: 53.5511, lon: 9.9937 },
  kassel: { name: "Kassel", lat: 51.3127, lon: 9.4797 },
  freiburg: { name: "Freiburg im Breisgau", lat: 47.999, lon: 7.8421 },
  muenster: { name: "Münster", lat: 51.9607, lon: 7.6261 },
  dresden: { name: "Dresden", lat: 51.0504, lon: 13.7373 },
  leipzig: { name: "Leipzig", lat: 51.3397, lon: 12.3731 },
  regensburg: { name: "Regensburg", lat: 49.0134, lon: 12.1016 },
  bremen: { name: "Bremen", lat: 53.0793, lon: 8.8017 },
  potsdam: { name: "Potsdam", lat: 52.3906, lon: 13.0645 },
  augsburg: { name: "Augsburg", lat: 48.3705, lon: 10.8978 },
} as const;

type CityKey = keyof typeof CITIES;

const SPECIALITIES = {
  physio: loc("Physiotherapie", "Physiotherapy"),
  osteo: loc("Osteopathie", "Osteopathy"),
  psych: loc("Psychotherapie (Heilpraktikergesetz)", "Psychotherapy (non-medical practitioner)"),
  ergo: loc("Ergotherapie", "Occupational therapy"),
  logo: loc("Logopädie", "Speech and language therapy"),
  nutrition: loc("Ernährungsberatung", "Nutrition counselling"),
  tcm: loc("Akupunktur und TCM", "Acupuncture and TCM"),
  midwife: loc("Hebamme", "Midwife"),
  gp: loc("Allgemeinmedizin", "General practice"),
  podo: loc("Podologie", "Podiatry"),
  naturo: loc("Naturheilkunde", "Naturopathy"),
  childPsych: loc("Kinder- und Jugendlichenpsychotherapie", "Child and adolescent psychotherapy"),
} satisfies Record<string, Localized<string>>;

type SpecialityKey = keyof typeof SPECIALITIES;

interface PractitionerSpec {
  /** Three-digit number; the item id is `prac-<n>`. */
  n: string;
  name: string;
  city: CityKey;
  zip: string;
  street: string;
  adress2?: string;
  speciality: SpecialityKey;
  languages: string[];
  websites?: string[];
  display?: boolean;
  finished?: boolean;
  /** Second practice in another city. */
  second?: CityKey;
  website?: string;
  description: Localized<string>;
  status?: "Draft";
}

const PRACTITIONERS: PractitionerSpec[] = [
  {
    n: "001", name: "Jürgen Weiß", city: "kassel", zip: "34117", street: "Friedrichsplatz 8", adress2: "3. OG",
    speciality: "physio", languages: ["de", "en"], second: "goettingen", website: "https://physio-weiss.example.org",
    description: loc(
      "Manuelle Therapie und Sportphysiotherapie. Schwerpunkt sind Knie- und Schulterbeschwerden nach Verletzungen. Dienstags zusätzlich in Göttingen.",
      "Manual therapy and sports physiotherapy, focusing on knee and shoulder problems after injuries. Also in Göttingen on Tuesdays.",
    ),
  },
  {
    n: "002", name: "Dr. Anja Groß", city: "muenchen", zip: "80331", street: "Sendlinger Gasse 14",
    speciality: "gp", languages: ["de", "en", "fr"], websites: ["PRAXISNETZ", "HEILNETZ"],
    description: loc(
      "Hausärztliche Versorgung mit viel Zeit für Gespräche. Reisemedizinische Beratung auf Deutsch, Englisch und Französisch.",
      "Family medicine with time to talk. Travel health advice in German, English and French.",
    ),
  },
  {
    n: "003", name: "Sören Müller", city: "hamburg", zip: "20457", street: "Am Sandtorkai 21",
    speciality: "osteo", languages: ["de", "en", "da"],
    description: loc(
      "Osteopathie für Erwachsene und Säuglinge. Ich arbeite sanft und erkläre jeden Schritt vorab.",
      "Osteopathy for adults and babies. I work gently and explain every step beforehand.",
    ),
  },
  {
    n: "004", name: "Ömer Yıldız", city: "koeln", zip: "50667", street: "Glockengasse 3",
    speciality: "physio", languages: ["de", "tr", "en"],
    description: loc(
      "Physiotherapie nach Operationen an Hüfte und Wirbelsäule. Behandlung auch auf Türkisch.",
      "Physiotherapy after hip and spine surgery. Treatment also available in Turkish.",
    ),
  },
  {
    n: "005", name: "Käthe Süßmann", city: "luebeck", zip: "23552", street: "Große Petersgrube 5",
    speciality: "naturo", languages: ["de"], websites: ["PRAXISNETZ", "HEILNETZ"],
    description: loc(
      "Naturheilkundliche Begleitung bei Erschöpfung und Schlafproblemen, mit Pflanzenheilkunde und Gesprächen.",
      "Naturopathic support for exhaustion and sleep problems, using herbal medicine and conversation.",
    ),
  },
  {
    n: "006", name: "Maria Schneider", city: "koeln", zip: "50672", street: "Brüsseler Straße 40",
    speciality: "ergo", languages: ["de", "en"],
    description: loc(
      "Ergotherapie für Kinder mit Konzentrations- und Feinmotorikschwierigkeiten. Elternberatung inklusive.",
      "Occupational therapy for children with attention and fine motor difficulties. Includes advice for parents.",
    ),
  },
  {
    n: "007", name: "Maria Schneider", city: "leipzig", zip: "04109", street: "Nikolaistraße 17",
    speciality: "logo", languages: ["de", "ru"],
    description: loc(
      "Logopädie bei Stimm- und Schluckstörungen, auch nach Schlaganfall. Hausbesuche im Leipziger Zentrum.",
      "Speech therapy for voice and swallowing disorders, including after a stroke. Home visits in central Leipzig.",
    ),
  },
  {
    n: "008", name: "Lena Hoffmann", city: "berlin", zip: "10435", street: "Kastanienallee 72", adress2: "Hinterhaus, 2. OG",
    speciality: "psych", languages: ["de", "en"],
    description: loc(
      "Gesprächstherapie bei Ängsten, Trauer und beruflichen Krisen. Erstgespräch auch online.",
      "Talking therapy for anxiety, grief and work-related crises. First session also available online.",
    ),
  },
  {
    n: "009", name: "Dr. Friedrich Bär", city: "wuerzburg", zip: "97070", street: "Domstraße 9",
    speciality: "gp", languages: ["de", "en"], display: false,
    description: loc(
      "Allgemeinmedizin mit Schwerpunkt Vorsorge. Derzeit keine Neuaufnahmen.",
      "General practice focusing on preventive care. Currently not taking new patients.",
    ),
  },
  {
    n: "010", name: "Zeynep Demir", city: "duesseldorf", zip: "40213", street: "Bolkerstraße 28",
    speciality: "midwife", languages: ["de", "tr"],
    description: loc(
      "Hebamme für Schwangerenvorsorge, Wochenbett und Stillberatung, auf Deutsch und Türkisch.",
      "Midwife for pregnancy care, the postnatal period and breastfeeding support, in German and Turkish.",
    ),
  },
  {
    n: "011", name: "Jonas Krüger", city: "goettingen", zip: "37073", street: "Weender Straße 55",
    speciality: "physio", languages: ["de", "en"], finished: false,
    description: loc(
      "Physiotherapeut im letzten Ausbildungsjahr, unter Supervision. Schwerpunkt Rückengesundheit.",
      "Physiotherapist in the final year of training, working under supervision. Focus on back health.",
    ),
  },
  {
    n: "012", name: "Dr. Elif Şahin", city: "nuernberg", zip: "90403", street: "Karolinenstraße 11",
    speciality: "childPsych", languages: ["de", "tr", "en"],
    description: loc(
      "Psychotherapie für Kinder und Jugendliche, mit Familie und Schule im Blick.",
      "Psychotherapy for children and teenagers, with family and school in mind.",
    ),
  },
  {
    n: "013", name: "Matthias Vogel", city: "fuerth", zip: "90762", street: "Gustavstraße 19",
    speciality: "osteo", languages: ["de"],
    description: loc(
      "Osteopathie bei Kiefer- und Nackenverspannungen. Zusammenarbeit mit Zahnarztpraxen in Fürth.",
      "Osteopathy for jaw and neck tension. Works closely with dental practices in Fürth.",
    ),
  },
  {
    n: "014", name: "Agnieszka Nowak", city: "goerlitz", zip: "02826", street: "Berliner Straße 31",
    speciality: "ergo", languages: ["de", "pl"],
    description: loc(
      "Ergotherapie für Erwachsene nach neurologischen Erkrankungen. Behandlung auch auf Polnisch.",
      "Occupational therapy for adults after neurological illness. Treatment also available in Polish.",
    ),
  },
  {
    n: "015", name: "Frauke Jänisch", city: "bremen", zip: "28195", street: "Sögestraße 44",
    speciality: "logo", languages: ["de", "en"],
    description: loc(
      "Sprachtherapie für Kinder und Stimmtraining für Menschen in Sprechberufen.",
      "Speech therapy for children and voice training for people who speak for a living.",
    ),
  },
  {
    n: "016", name: "Paul Straßer", city: "regensburg", zip: "93047", street: "Gesandtenstraße 6",
    speciality: "tcm", languages: ["de", "en", "zh"], websites: ["PRAXISNETZ", "HEILNETZ"],
    description: loc(
      "Akupunktur und chinesische Kräuterheilkunde bei Kopfschmerzen und Allergien.",
      "Acupuncture and Chinese herbal medicine for headaches and allergies.",
    ),
  },
  {
    n: "017", name: "Dr. Mehmet Öztürk", city: "berlin", zip: "10999", street: "Oranienstraße 160",
    speciality: "gp", languages: ["de", "tr", "en"], second: "potsdam",
    description: loc(
      "Hausarztpraxis in Kreuzberg mit Diabetes-Sprechstunde. Donnerstags Sprechstunde in Potsdam.",
      "Family practice in Kreuzberg with a diabetes clinic. Thursday consultations in Potsdam.",
    ),
  },
  {
    n: "018", name: "Sophie Lefèvre", city: "freiburg", zip: "79098", street: "Konviktstraße 24",
    speciality: "osteo", languages: ["de", "fr", "en"],
    description: loc(
      "Osteopathie in der Altstadt, auch für Schwangere. Je suis heureuse de vous recevoir en français.",
      "Osteopathy in the old town, also during pregnancy. Happy to treat you in French.",
    ),
  },
  {
    n: "019", name: "Tobias Schäfer", city: "muenster", zip: "48143", street: "Prinzipalmarkt 12",
    speciality: "physio", languages: ["de", "en", "nl"],
    description: loc(
      "Physiotherapie für Radfahrende und Läufer:innen, mit Bewegungsanalyse auf dem Laufband.",
      "Physiotherapy for cyclists and runners, including treadmill gait analysis.",
    ),
  },
  {
    n: "020", name: "Hanna Brückner", city: "dresden", zip: "01067", street: "Wallstraße 4",
    speciality: "psych", languages: ["de"], websites: ["PRAXISNETZ", "HEILNETZ"],
    description: loc(
      "Begleitung bei Stress und Burn-out mit Achtsamkeitsübungen und Gesprächen.",
      "Support with stress and burnout through mindfulness exercises and conversation.",
    ),
  },
  {
    n: "021", name: "Ingrid Kießling", city: "leipzig", zip: "04275", street: "Karl-Liebknecht-Straße 92",
    speciality: "naturo", languages: ["de"], websites: ["HEILNETZ"],
    description: loc(
      "Naturheilpraxis mit Schwerpunkt Verdauung und Ernährung.",
      "Naturopathic practice focusing on digestion and diet.",
    ),
  },
  {
    n: "022", name: "Lukas Engel", city: "muenchen", zip: "80469", street: "Fraunhoferstraße 26",
    speciality: "podo", languages: ["de", "en"], second: "augsburg",
    description: loc(
      "Medizinische Fußpflege, auch für Menschen mit Diabetes. Montags in Augsburg.",
      "Medical foot care, including for people with diabetes. Mondays in Augsburg.",
    ),
  },
  {
    n: "023", name: "Amelie Fuß", city: "kassel", zip: "34119", street: "Friedrich-Ebert-Straße 101",
    speciality: "nutrition", languages: ["de", "en"],
    description: loc(
      "Ernährungsberatung bei Unverträglichkeiten, mit alltagstauglichen Rezepten statt Verboten.",
      "Nutrition counselling for food intolerances, with practical recipes instead of bans.",
    ),
  },
  {
    n: "024", name: "Giulia Romano", city: "berlin", zip: "10117", street: "Linienstraße 33",
    speciality: "physio", languages: ["de", "it", "en"],
    description: loc(
      "Physiotherapie für Musiker:innen: Hände, Schultern und Haltung am Instrument.",
      "Physiotherapy for musicians: hands, shoulders and posture at the instrument.",
    ),
  },
  {
    n: "025", name: "Karl-Heinz Dörfler", city: "nuernberg", zip: "90429", street: "Fürther Straße 70",
    speciality: "tcm", languages: ["de"], websites: ["HEILNETZ"],
    description: loc(
      "Akupunktur bei chronischen Schmerzen, seit über zwanzig Jahren in Gostenhof.",
      "Acupuncture for chronic pain, in Gostenhof for over twenty years.",
    ),
  },
  {
    n: "026", name: "Nadine Weißgerber", city: "hamburg", zip: "22767", street: "Große Bergstraße 150",
    speciality: "midwife", languages: ["de", "en"],
    description: loc(
      "Hebammenpraxis in Altona mit Geburtsvorbereitungskursen, auch am Wochenende.",
      "Midwifery practice in Altona with antenatal classes, also at weekends.",
    ),
  },
  {
    n: "027", name: "Dr. Ruth Klein", city: "bremen", zip: "28203", street: "Ostertorsteinweg 58",
    speciality: "childPsych", languages: ["de", "en", "he"],
    description: loc(
      "Therapie für Jugendliche mit Ess- und Angststörungen, in enger Absprache mit den Eltern.",
      "Therapy for teenagers with eating and anxiety disorders, working closely with parents.",
    ),
  },
  {
    n: "028", name: "Felix Mäurer", city: "koeln", zip: "50674", street: "Zülpicher Straße 8",
    speciality: "nutrition", languages: ["de", "en"], display: false,
    description: loc(
      "Sporternährung für Vereine und Einzelpersonen. Profil in Überarbeitung.",
      "Sports nutrition for clubs and individuals. Profile being updated.",
    ),
  },
  {
    n: "029", name: "Olga Petrova", city: "dresden", zip: "01099", street: "Alaunstraße 36",
    speciality: "logo", languages: ["de", "ru", "en"],
    description: loc(
      "Logopädie für mehrsprachige Kinder, mit Übungsmaterial auf Deutsch und Russisch.",
      "Speech therapy for multilingual children, with exercises in German and Russian.",
    ),
  },
  {
    n: "030", name: "Anton Höß", city: "regensburg", zip: "93053", street: "Kumpfmühler Straße 15",
    speciality: "physio", languages: ["de"], websites: ["HEILNETZ"],
    description: loc(
      "Krankengymnastik und Lymphdrainage, auch als Hausbesuch.",
      "Remedial exercise and lymphatic drainage, home visits available.",
    ),
  },
  {
    n: "031", name: "Svenja Thießen", city: "luebeck", zip: "23568", street: "Schwartauer Allee 22",
    speciality: "ergo", languages: ["de", "en"],
    description: loc(
      "Ergotherapie bei Handverletzungen, mit individuell angepassten Schienen.",
      "Occupational therapy for hand injuries, with custom-fitted splints.",
    ),
  },
  {
    n: "032", name: "Yusuf Aydın", city: "duesseldorf", zip: "40210", street: "Graf-Adolf-Straße 45",
    speciality: "osteo", languages: ["de", "tr", "ar"],
    description: loc(
      "Osteopathie bei Rücken- und Kopfschmerzen, Termine auch früh morgens.",
      "Osteopathy for back pain and headaches, early-morning appointments available.",
    ),
  },
  {
    n: "033", name: "Clara Löwenstein", city: "freiburg", zip: "79102", street: "Günterstalstraße 3",
    speciality: "psych", languages: ["de", "en", "fr"], display: false,
    description: loc(
      "Paar- und Einzelgespräche. Die Praxis ist bis auf Weiteres geschlossen.",
      "Couples and individual sessions. The practice is closed until further notice.",
    ),
  },
  {
    n: "034", name: "Marek Kowalski", city: "goerlitz", zip: "02828", street: "Jakobstraße 7",
    speciality: "physio", languages: ["de", "pl", "cs"],
    description: loc(
      "Physiotherapie im Dreiländereck, Behandlung auf Deutsch, Polnisch und Tschechisch.",
      "Physiotherapy where three countries meet, treatment in German, Polish and Czech.",
    ),
  },
  {
    n: "035", name: "Theresa Grün", city: "muenster", zip: "48151", street: "Hammer Straße 64",
    speciality: "nutrition", languages: ["de"], status: "Draft",
    description: loc(
      "Ernährungsberatung für Familien. Eintrag wird noch geprüft.",
      "Nutrition counselling for families. Entry still under review.",
    ),
  },
];

/** ASCII local part for fictional example.org addresses. */
function emailLocalPart(name: string): string {
  const map: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", ß: "ss", ı: "i", ş: "s", è: "e" };
  return name
    .toLowerCase()
    .replace(/^dr\.\s*/, "")
    .replace(/[äöüßışè]/g, (ch) => map[ch] ?? ch)
    .replace(/[^a-z]+/g, ".")
    .replace(/^\.|\.$/g, "");
}

/** Deterministic small offset (about ±300 m), so practitioners in one city don't share a pin. */
function nearCity(city: CityKey, seed: number): GeoPoint {
  const c = CITIES[city];
  return geo(c.lat + ((seed % 5) - 2) * 0.0031, c.lon + ((seed % 7) - 3) * 0.0043);
}

function practitionerItem(spec: PractitionerSpec): DemoItem {
  const seed = Number(spec.n);
  const data: DemoItem["data"] = {
    name: iv(spec.name),
    display: iv(spec.display ?? true),
    websites: iv(spec.websites ?? ["PRAXISNETZ"]),
    coords: iv(nearCity(spec.city, seed)),
    ...(spec.second === undefined ? {} : { coords2: iv(nearCity(spec.second, seed + 3)) }),
    languages: iv(spec.languages),
    country: iv("DE"),
    city: iv(CITIES[spec.city].name),
    street: iv(spec.street),
    zip: iv(spec.zip),
    ...(spec.adress2 === undefined ? {} : { adress2: iv(spec.adress2) }),
    finishedPractitioner: iv(spec.finished ?? true),
    speciality: { ...SPECIALITIES[spec.speciality] },
    description: { ...spec.description },
    ...(spec.website === undefined ? {} : { website: iv(spec.website) }),
    email: iv(`${emailLocalPart(spec.name)}.${spec.n}@example.org`),
    phone: iv(`+49 30 000000${spec.n.slice(1)}`),
  };
  return { schema: "gm-content-practitioners", id: `prac-${spec.n}`, status: spec.status ?? "Published", data };
}

export const practitionerItems: DemoItem[] = PRACTITIONERS.map(practitionerItem);
