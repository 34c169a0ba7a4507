/**
 * Personal data and secrets out of URLs before they are logged: the newsletter and present pages
 * carry the visitor's address in the path (`/newsletter/{email}`, `/en/present/{email}`), links in
 * mails carry signed tokens (`?token=`). Logs are kept longer and seen by more people than the
 * database rows they point at.
 */
const REDACTED = "[redacted]";
/** Path segments whose next segment is an address (not under /api/, where they name an action). */
const PRIVATE_SEGMENT = new Set(["newsletter", "present"]);
/** Query parameters whose value is a secret or an address, whatever the route. */
const PRIVATE_PARAM = new Set(["token", "email"]);

/** Percent-decoded and lower-cased for comparison; malformed escapes are compared as written. */
function normalized(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " ")).trim().toLowerCase();
  } catch {
    return part.toLowerCase();
  }
}

/** An address anywhere (`a@b`, or `a%40b`): also caught outside the known routes (typos, 404s). */
const looksLikeAddress = (part: string) => normalized(part).includes("@");

function redactPath(path: string): string {
  const segments = path.split("/");
  for (let i = 0; i < segments.length; i++) {
    const name = normalized(segments[i]!);
    const next = segments[i + 1];
    if (PRIVATE_SEGMENT.has(name) && next && normalized(segments[i - 1] ?? "") !== "api") {
      segments[i + 1] = REDACTED;
      i++;
    } else if (looksLikeAddress(segments[i]!)) segments[i] = REDACTED;
  }
  return segments.join("/");
}

function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? "" : pair.slice(eq + 1);
      if (!value) return pair;
      return PRIVATE_PARAM.has(normalized(name)) || looksLikeAddress(value) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
}

/**
 * `url` (a request target like `/newsletter/a%40b.de?token=…`, or an absolute URL) as it may be
 * logged: the segment after `newsletter`/`present`, any segment or query value holding an `@`, the
 * values of `token` and `email`, user info and fragment replaced by `[redacted]`. Everything else is
 * kept as written (no re-encoding), so a log line still shows which page was asked for.
 */
export function redactUrl(url: string): string {
  if (typeof url !== "string") return "";
  let rest = url;
  let fragment = "";
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    fragment = hash < rest.length - 1 ? `#${REDACTED}` : "#";
    rest = rest.slice(0, hash);
  }
  let prefix = "";
  const absolute = /^([a-z][a-z0-9+.-]*:\/\/)([^/?]*)/i.exec(rest);
  if (absolute) {
    const authority = absolute[2]!;
    const at = authority.lastIndexOf("@");
    prefix = absolute[1]! + (at >= 0 ? `${REDACTED}@${authority.slice(at + 1)}` : authority);
    rest = rest.slice(absolute[0].length);
  }
  const question = rest.indexOf("?");
  const path = question < 0 ? rest : rest.slice(0, question);
  const query = question < 0 ? undefined : rest.slice(question + 1);
  return prefix + redactPath(path) + (query === undefined ? "" : `?${redactQuery(query)}`) + fragment;
}

/**
 * Whether the request target `url` is about one visitor (an address in its path, a token or an
 * address in its query): exactly what `redactUrl` would hide. Such answers are never cached.
 */
export function carriesPrivateData(url: string): boolean {
  return redactUrl(url) !== url;
}
