/**
 * Folding text for comparison that ignores case and accents, defined by one explicit table so that
 * JavaScript, SQLite (a registered function) and PostgreSQL (an SQL function made from the same
 * table) give byte-identical results, whatever the database's locale. Covers ASCII, Latin-1 and
 * Latin Extended-A (German, French, Polish, Turkish, Scandinavian… names); other characters stay.
 */
const SPECIAL: Record<string, string> = { Ø: "o", ø: "o", Đ: "d", đ: "d", Ð: "d", ð: "d", Ħ: "h", ħ: "h", Ł: "l", ł: "l", ı: "i", Ŧ: "t", ŧ: "t", Ŀ: "l", ŀ: "l" };
/** Letters that fold to two letters (translate() maps one to one, so these are replaced first). */
export const FOLD_EXPANSIONS: ReadonlyArray<readonly [string, string]> = [
  ["ß", "ss"],
  ["Æ", "ae"],
  ["æ", "ae"],
  ["Œ", "oe"],
  ["œ", "oe"],
  ["Þ", "th"],
  ["þ", "th"],
  ["ĳ", "ij"],
  ["Ĳ", "ij"],
];

function buildTable(): { from: string; to: string } {
  let from = "";
  let to = "";
  for (let c = 0x41; c <= 0x5a; c++) {
    from += String.fromCharCode(c);
    to += String.fromCharCode(c + 32);
  }
  const expanded = new Set(FOLD_EXPANSIONS.map(([c]) => c));
  for (let c = 0xc0; c <= 0x17f; c++) {
    const ch = String.fromCharCode(c);
    if (expanded.has(ch)) continue;
    const base = SPECIAL[ch] ?? ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    if (/^[a-z]$/.test(base)) {
      from += ch;
      to += base;
    }
  }
  return { from, to };
}

/** translate(text, FOLD_TABLE.from, FOLD_TABLE.to) after the expansions: the whole fold. */
export const FOLD_TABLE = buildTable();
const MAP = new Map([...FOLD_TABLE.from].map((ch, i) => [ch, FOLD_TABLE.to[i]!]));

/** "Jürgen WEISS" → "jurgen weiss", "Straße" → "strasse", "Łódź" → "lodz". */
export function fold(text: string): string {
  let out = text;
  for (const [from, to] of FOLD_EXPANSIONS) if (out.includes(from)) out = out.split(from).join(to);
  let result = "";
  for (const ch of out) result += MAP.get(ch) ?? ch;
  return result;
}

/** The PostgreSQL function with the same table (created or replaced at every start). */
export function postgresFoldFunction(): string {
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  let expr = "t";
  for (const [from, to] of FOLD_EXPANSIONS) expr = `replace(${expr}, ${quote(from)}, ${quote(to)})`;
  return `create or replace function pn_fold(t text) returns text language sql immutable strict parallel safe as $$ select translate(${expr}, ${quote(FOLD_TABLE.from)}, ${quote(FOLD_TABLE.to)}) $$`;
}

/**
 * The fold for searching: also reads the German transcriptions ae, oe, ue as the plain vowel, so
 * "Mueller", "Müller" and "Muller" all find each other ("Koeln" ~ "Köln"). Applied to the text and the
 * search alike; in SQL it is `replace(replace(replace(pn_fold(x), 'ae', 'a'), 'oe', 'o'), 'ue', 'u')`.
 */
export function searchFold(text: string): string {
  return fold(text).replace(/ae/g, "a").replace(/oe/g, "o").replace(/ue/g, "u");
}

/**
 * The words of a full-text search, folded for search, each once; control characters separate words
 * like spaces (they occur in no text worth finding). An item matches when it has every word.
 */
export function searchWords(text: string): string[] {
  return [...new Set(searchFold(text).split(/[\s\u0000-\u001f\u007f]+/).filter(Boolean))];
}
