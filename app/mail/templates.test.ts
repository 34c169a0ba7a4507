import { describe, expect, it } from "vitest";
import { escapeHtml, httpUrl, renderMail } from "./templates";

const base = { kind: "test-mail", to: "jana@example.org", subject: "Betreff" };

describe("mail templates", () => {
  it("render the same content as plain text and HTML, in German", () => {
    const mail = renderMail({
      ...base,
      language: "de",
      greeting: "Guten Tag Jana Wünsche,",
      paragraphs: ["Ihr Termin ist gebucht.", "Bis bald!"],
      action: { label: "Termin absagen", url: "https://praxisnetz.example/termin?token=a&b=1" },
      footer: ["Abmelden: https://praxisnetz.example/newsletter?unsubscribe=xyz."],
      headers: { "List-Unsubscribe": "<https://praxisnetz.example/u>" },
    });
    expect(mail).toMatchObject({ kind: "test-mail", to: "jana@example.org", subject: "Betreff", headers: { "List-Unsubscribe": "<https://praxisnetz.example/u>" } });
    expect(mail.attachments).toBeUndefined();
    expect(mail.text).toBe(
      [
        "Guten Tag Jana Wünsche,",
        "",
        "Ihr Termin ist gebucht.",
        "",
        "Bis bald!",
        "",
        "Termin absagen:",
        "https://praxisnetz.example/termin?token=a&b=1",
        "",
        "Ihr Praxisnetz-Team",
        "",
        "-- ",
        "Abmelden: https://praxisnetz.example/newsletter?unsubscribe=xyz.",
        "",
      ].join("\n"),
    );
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="de" dir="ltr">/);
    expect(mail.html).toContain("<title>Betreff</title>");
    expect(mail.html).toContain(">Praxisnetz</td>");
    expect(mail.html).toContain("Guten Tag Jana Wünsche,");
    expect(mail.html).toContain(`<a href="https://praxisnetz.example/termin?token=a&amp;b=1" style="display:inline-block;`);
    expect(mail.html).toContain("Falls der Knopf nicht funktioniert");
    expect(mail.html).toContain("Ihr Praxisnetz-Team");
    // The sentence's full stop is not part of the link.
    expect(mail.html).toContain(`Abmelden: <a href="https://praxisnetz.example/newsletter?unsubscribe=xyz" style="color:#0f5e63">https://praxisnetz.example/newsletter?unsubscribe=xyz</a>.`);
    // Self-contained: nothing is loaded from elsewhere.
    expect(mail.html).not.toMatch(/<img|<link|<script|url\(/i);
  });

  it("render in English", () => {
    const mail = renderMail({ ...base, language: "en", subject: "Your booking", paragraphs: ["Booked."], action: { label: "Cancel", url: "http://localhost:3000/x" } });
    expect(mail.html).toContain(`<html lang="en" dir="ltr">`);
    expect(mail.html).toContain("If the button does not work, open this address:");
    expect(mail.text).toBe("Booked.\n\nCancel:\nhttp://localhost:3000/x\n\nYour Praxisnetz team\n");
    expect(mail.html).toContain("Your Praxisnetz team");
    expect(mail.html).not.toContain("Ihr ");
  });

  it("escape every value in the HTML and keep it as typed in the text", () => {
    const name = `<script>alert(1)</script>`;
    const mail = renderMail({
      ...base,
      language: "de",
      subject: `Termin für ${name}`,
      greeting: `Guten Tag ${name},`,
      paragraphs: [`Notiz: "<img src=x onerror=alert(2)>" & 'mehr'\nzweite Zeile`],
      action: { label: `<b>los</b>`, url: `https://example.org/?q="><script>alert(3)</script>` },
      footer: [`<a href="javascript:alert(4)">x</a> javascript:alert(5) https://ok.example/"onmouseover="alert(6)`],
    });
    expect(mail.text).toContain(`Guten Tag ${name},`);
    const html = mail.html;
    // Only the layout's own elements are markup; what was typed is text.
    const tags = new Set([...html.matchAll(/<\/?([a-z!]+)/gi)].map((m) => m[1]!.toLowerCase()));
    expect([...tags].sort()).toEqual(["!doctype", "a", "body", "br", "head", "html", "meta", "p", "table", "td", "title", "tr"]);
    for (const [tag] of html.matchAll(/<[^>]*>/g)) expect(tag).not.toMatch(/\son[a-z]+=|javascript:/i);
    expect(html).toContain("Guten Tag &lt;script&gt;alert(1)&lt;/script&gt;,");
    expect(html).toContain("<title>Termin für &lt;script&gt;alert(1)&lt;/script&gt;</title>");
    expect(html).toContain("Notiz: &quot;&lt;img src=x onerror=alert(2)&gt;&quot; &amp; &#39;mehr&#39;<br>zweite Zeile");
    expect(html).toContain("&lt;b&gt;los&lt;/b&gt;");
    // The URL parser percent-encodes what would end the attribute.
    expect(html).toContain(`href="https://example.org/?q=%22%3E%3Cscript%3Ealert(3)%3C/script%3E"`);
    // Every attribute value is quoted and free of quotes: no way to add an attribute.
    for (const [, value] of html.matchAll(/href="([^"]*)"/g)) expect(value).toMatch(/^https?:\/\/[^"<>]*$/);
  });

  it("accept only absolute http(s) links", () => {
    for (const url of ["javascript:alert(1)", "data:text/html,<b>x</b>", "/relative", "mailto:a@example.org", "ftp://example.org/"]) {
      expect(() => renderMail({ ...base, language: "en", paragraphs: [], action: { label: "Go", url } })).toThrow(/mail link/);
    }
    expect(httpUrl("HTTPS://Example.org/a b")).toBe("https://example.org/a%20b");
  });

  it("keep headers and subject on one line and pass attachments through", () => {
    const attachments = [{ filename: "termin.ics", contentType: "text/calendar; charset=utf-8; method=REQUEST", content: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" }];
    const mail = renderMail({ ...base, language: "de", subject: "A\r\nBcc: evil@example.org", paragraphs: ["x"], headers: { "X-Test": "a\nb" }, attachments });
    expect(mail.subject).toBe("A Bcc: evil@example.org");
    expect(mail.headers).toEqual({ "X-Test": "a b" });
    expect(mail.attachments).toEqual(attachments);
  });

  it("escape the five HTML characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });
});
