/**
 * Hand-made SVG illustrations for the demo pages. Abstract shapes in the "Standard" theme colours;
 * the real photos come later through the asset manager.
 */

export interface DemoAsset {
  id: string;
  fileName: string;
  mimeType: string;
  body: string;
  /** How the body's characters become bytes (default UTF-8; the PDF is Latin-1). */
  encoding?: BufferEncoding;
}

const SVG = "image/svg+xml";

const heroBackground = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900">
<title>Abstrakte Landschaft in Petrol und Salbei</title>
<rect width="1600" height="900" fill="#F3EDE4"/>
<circle cx="1240" cy="250" r="150" fill="#8FB3A0"/>
<circle cx="1372" cy="178" r="46" fill="#E9785D"/>
<path d="M180 260c60-40 120-40 180 0s120 40 180 0M180 310c60-40 120-40 180 0s120 40 180 0" fill="none" stroke="#0F5E63" stroke-width="10" stroke-linecap="round" opacity=".3"/>
<path d="M0 610C260 530 430 700 700 640S1180 410 1600 510V900H0Z" fill="#0F5E63"/>
<path d="M0 720C300 660 520 800 820 760S1300 600 1600 680V900H0Z" fill="#8FB3A0" opacity=".75"/>
<path d="M0 820C340 780 620 860 960 830S1400 770 1600 800V900H0Z" fill="#F3EDE4" opacity=".5"/>
</svg>`;

const practiceRoom = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
<title>Heller Behandlungsraum mit Liege, Fenster und Pflanze</title>
<rect width="1200" height="800" fill="#F3EDE4"/>
<rect y="600" width="1200" height="200" fill="#E3D8C8"/>
<rect x="140" y="120" width="320" height="340" rx="12" fill="#E8EEF2" stroke="#FFFFFF" stroke-width="14"/>
<path d="M300 120v340M140 290h320" stroke="#FFFFFF" stroke-width="10"/>
<circle cx="390" cy="190" r="36" fill="#D9A441" opacity=".7"/>
<rect x="560" y="470" width="440" height="50" rx="25" fill="#0F5E63"/>
<rect x="600" y="520" width="22" height="110" fill="#1F2328"/>
<rect x="940" y="520" width="22" height="110" fill="#1F2328"/>
<rect x="560" y="450" width="120" height="36" rx="18" fill="#8FB3A0"/>
<path d="M860 120v150" stroke="#1F2328" stroke-width="6"/>
<path d="M800 300h120l-26-40h-68Z" fill="#E9785D"/>
<rect x="1040" y="520" width="90" height="100" rx="10" fill="#E9785D"/>
<path d="M1085 520c-40-60-60-120-30-190M1085 520c10-70 40-120 80-150M1085 520c-60-30-100-70-110-130" fill="none" stroke="#4F7A62" stroke-width="14" stroke-linecap="round"/>
<ellipse cx="1055" cy="330" rx="24" ry="12" fill="#8FB3A0"/>
<ellipse cx="1165" cy="370" rx="24" ry="12" fill="#8FB3A0"/>
<ellipse cx="975" cy="390" rx="24" ry="12" fill="#8FB3A0"/>
</svg>`;

const team = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
<title>Abstrakte Figuren als Team</title>
<rect width="1200" height="800" fill="#E8EEF2"/>
<circle cx="600" cy="420" r="330" fill="#F3EDE4"/>
<g>
<circle cx="330" cy="360" r="70" fill="#D9A441"/>
<path d="M200 660c0-120 60-200 130-200s130 80 130 200Z" fill="#3D5A80"/>
</g>
<g>
<circle cx="600" cy="300" r="84" fill="#E9785D"/>
<path d="M440 660c0-150 70-250 160-250s160 100 160 250Z" fill="#0F5E63"/>
</g>
<g>
<circle cx="870" cy="360" r="70" fill="#8FB3A0"/>
<path d="M740 660c0-120 60-200 130-200s130 80 130 200Z" fill="#1F2328"/>
</g>
<rect x="150" y="660" width="900" height="14" rx="7" fill="#1F2328" opacity=".15"/>
</svg>`;

const mapPlaceholder = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600" viewBox="0 0 1200 600">
<title>Stilisierte Karte mit Markierungen</title>
<rect width="1200" height="600" fill="#E8EEF2"/>
<path d="M0 420C200 380 300 470 470 430S760 300 920 340 1120 300 1200 280" fill="none" stroke="#98C1D9" stroke-width="36" stroke-linecap="round"/>
<path d="M80 0v600M360 0l80 600M700 0l-40 600M980 0v600M0 150h1200M0 520l1200-60" stroke="#FFFFFF" stroke-width="14"/>
<rect x="420" y="180" width="180" height="120" rx="10" fill="#D6E4D9"/>
<rect x="760" y="400" width="160" height="110" rx="10" fill="#D6E4D9"/>
<g fill="#E9785D">
<path d="M520 250c0-30 22-52 50-52s50 22 50 52c0 38-50 86-50 86s-50-48-50-86Z"/>
<path d="M230 330c0-22 16-38 36-38s36 16 36 38c0 28-36 62-36 62s-36-34-36-62Z" opacity=".8"/>
<path d="M860 210c0-22 16-38 36-38s36 16 36 38c0 28-36 62-36 62s-36-34-36-62Z" opacity=".8"/>
</g>
<g fill="#FFFFFF"><circle cx="570" cy="250" r="18"/><circle cx="266" cy="330" r="12"/><circle cx="896" cy="210" r="12"/></g>
</svg>`;

const placeholder = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
<title>Platzhalterbild</title>
<rect width="800" height="600" fill="#F3EDE4"/>
<circle cx="560" cy="200" r="60" fill="#E9785D" opacity=".8"/>
<path d="M0 600V440l200-170 170 150 110-90 320 240v30Z" fill="#8FB3A0"/>
<path d="M0 600V500l260-120 230 130 310-60v150Z" fill="#0F5E63"/>
</svg>`;

/** Text in a PDF string: brackets and backslashes escaped, umlauts as WinAnsi octal codes. */
function pdfText(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, (c) => `\\${(c.charCodeAt(0) & 0xff).toString(8).padStart(3, "0")}`);
}

/**
 * The newsletter's welcome present: a one-page PDF checklist, written out by hand (objects and the
 * cross-reference table with their byte offsets), so the demo needs no binary file in the repository.
 */
export function presentPdf(): string {
  const lines = [
    ["Praxisnetz: Checkliste f\u00fcr den ersten Termin", 20],
    ["Checklist for your first appointment", 14],
    ["", 12],
    ["- Versichertenkarte und Ausweis / health insurance card and ID", 12],
    ["- \u00dcberweisung, falls vorhanden / referral, if you have one", 12],
    ["- Liste Ihrer Medikamente / list of your medicines", 12],
    ["- Fragen notieren / write down your questions", 12],
    ["- 10 Minuten fr\u00fcher da sein / arrive 10 minutes early", 12],
  ] as const;
  let y = 780;
  const content = lines
    .map(([text, size]) => {
      const line = `BT /F1 ${size} Tf 60 ${y} Td (${pdfText(text)}) Tj ET`;
      y -= size + 14;
      return line;
    })
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return pdf;
}

/** The asset the present page offers (an app setting may name another; see newsletter/present.server.ts). */
export const PRESENT_ASSET_ID = "asset-newsletter-present";

export const demoAssets: DemoAsset[] = [
  { id: "asset-hero", fileName: "hero-landschaft.svg", mimeType: SVG, body: heroBackground },
  { id: "asset-practice-room", fileName: "behandlungsraum.svg", mimeType: SVG, body: practiceRoom },
  { id: "asset-team", fileName: "team.svg", mimeType: SVG, body: team },
  { id: "asset-map", fileName: "karte.svg", mimeType: SVG, body: mapPlaceholder },
  { id: "asset-placeholder", fileName: "platzhalter.svg", mimeType: SVG, body: placeholder },
  { id: PRESENT_ASSET_ID, fileName: "checkliste-erster-termin.pdf", mimeType: "application/pdf", body: presentPdf(), encoding: "latin1" },
];
