import type { Language } from "~/i18n/languages";
import type { MailMessage } from "./outbox";

/** The name mails are signed with (SITE_NAME is a technical id, not the brand). */
export const MAIL_BRAND = "Praxisnetz";

/** What a flow says in one mail; plain text and HTML are both made from it. */
export interface MailContent {
  kind: string;
  to: string;
  language: Language;
  subject: string;
  /** "Guten Tag Frau Weber," — the first line, on its own. */
  greeting?: string;
  /** Plain text; a line break stays a line break, http(s) addresses become links in the HTML. */
  paragraphs: string[];
  /** The one thing to do, as a button (and the address written out, for clients that show no button). */
  action?: { label: string; url: string };
  /** Small print below the signature (unsubscribe link, why the mail came). */
  footer?: string[];
  headers?: Record<string, string>;
  attachments?: MailMessage["attachments"];
}

const WORDS = {
  de: { signature: `Ihr ${MAIL_BRAND}-Team`, fallback: "Falls der Knopf nicht funktioniert, öffnen Sie diese Adresse:" },
  en: { signature: `Your ${MAIL_BRAND} team`, fallback: "If the button does not work, open this address:" },
} satisfies Record<Language, { signature: string; fallback: string }>;

// Colours with at least 4.5:1 contrast on their background (WCAG AA), the site's teal for the brand.
const COLOR = { text: "#1f2933", muted: "#52606d", brand: "#0f5e63", page: "#f4f5f7", card: "#ffffff", rule: "#d9dee3" };
const FONT = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/**
 * A mail in the recipient's language with plain text and HTML from the same content. Every value
 * is escaped in the HTML, so what visitors typed (a name, a note) shows as text and never as markup;
 * the action must be an http(s) URL (anything else throws: it is a programming error). The HTML is
 * one inline-styled column without images or web fonts, so it reads the same in every client and
 * in a screen reader.
 */
export function renderMail(content: MailContent): MailMessage {
  const words = WORDS[content.language];
  const subject = oneLine(content.subject);
  const action = content.action && { label: oneLine(content.action.label), url: httpUrl(content.action.url) };
  const footer = content.footer ?? [];

  const text = [
    ...(content.greeting ? [content.greeting, ""] : []),
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(action ? [`${action.label}:`, action.url, ""] : []),
    words.signature,
    // "-- " is the signature separator: mail clients dim or fold what follows.
    ...(footer.length ? ["", "-- ", ...footer] : []),
    "",
  ].join("\n");

  const paragraph = (body: string, style = "") => `<p style="margin:0 0 16px${style}">${body}</p>`;
  const html = [
    "<!doctype html>",
    `<html lang="${content.language}" dir="ltr">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:${COLOR.page}">`,
    // Layout tables (role=presentation: screen readers skip the table semantics) because several
    // mail clients ignore max-width and margins on divs.
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLOR.page}"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:${COLOR.card};border-radius:6px;font-family:${FONT};font-size:16px;line-height:1.5;color:${COLOR.text}">`,
    `<tr><td style="padding:20px 28px;border-bottom:4px solid ${COLOR.brand};font-size:20px;font-weight:bold;color:${COLOR.brand}">${MAIL_BRAND}</td></tr>`,
    `<tr><td style="padding:24px 28px 8px">`,
    ...(content.greeting ? [paragraph(richText(content.greeting))] : []),
    ...content.paragraphs.map((p) => paragraph(richText(p))),
    ...(action
      ? [
          paragraph(
            `<a href="${escapeHtml(action.url)}" style="display:inline-block;background:${COLOR.brand};color:#ffffff;padding:12px 20px;border-radius:4px;font-weight:bold;text-decoration:none">${escapeHtml(action.label)}</a>`,
            ";padding-top:8px",
          ),
          paragraph(`${escapeHtml(words.fallback)}<br>${link(action.url)}`, `;font-size:14px;color:${COLOR.muted};word-break:break-all`),
        ]
      : []),
    paragraph(escapeHtml(words.signature)),
    `</td></tr>`,
    ...(footer.length
      ? [`<tr><td style="padding:16px 28px;border-top:1px solid ${COLOR.rule};font-size:14px;color:${COLOR.muted}">${footer.map(richText).join("<br>")}</td></tr>`]
      : []),
    `</table>`,
    `</td></tr></table>`,
    `</body>`,
    `</html>`,
    "",
  ].join("\n");

  return {
    kind: content.kind,
    to: oneLine(content.to),
    subject,
    text,
    html,
    ...(content.headers ? { headers: Object.fromEntries(Object.entries(content.headers).map(([k, v]) => [k, oneLine(v)])) } : {}),
    ...(content.attachments ? { attachments: content.attachments } : {}),
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** `url` normalised, when it is an absolute http(s) URL; throws otherwise (javascript:, data:, relative). */
export function httpUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`mail link is not an absolute URL: ${JSON.stringify(url.slice(0, 100))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`mail link must be http(s), got ${parsed.protocol}`);
  return parsed.href;
}

/** http(s) addresses in running text, without the punctuation that usually ends a sentence after them. */
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+?(?=[.,;:!?)\]]*(?:\s|$))/g;

/** Escaped text with its http(s) addresses as links and its line breaks kept. */
function richText(value: string): string {
  let out = "";
  let last = 0;
  for (const match of value.matchAll(URL_IN_TEXT)) {
    out += escapeHtml(value.slice(last, match.index));
    let href: string | undefined;
    try {
      href = httpUrl(match[0]);
    } catch {
      href = undefined;
    }
    out += href ? link(href, match[0]) : escapeHtml(match[0]);
    last = match.index + match[0].length;
  }
  out += escapeHtml(value.slice(last));
  return out.replace(/\r?\n/g, "<br>");
}

function link(href: string, label = href): string {
  return `<a href="${escapeHtml(href)}" style="color:${COLOR.brand}">${escapeHtml(label)}</a>`;
}

/** Header lines take one line: content never breaks out of them. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}
