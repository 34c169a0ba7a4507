import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { ContentError } from "./errors";

/**
 * Squidex's "upload an asset from a URL" (`POST …/assets` with a `url` part instead of a file): the
 * service downloads the file itself. A download on a caller's behalf is a way into the host's own
 * network (server-side request forgery), so it is held to these rules:
 *
 * - http or https only, no user name or password in the address, at most MAX_REDIRECTS redirects,
 *   each checked as the first address is;
 * - the host name is resolved once here, every address it has must be public (not loopback,
 *   private, link-local, carrier-grade NAT, multicast, documentation or reserved ranges, in IPv4 or
 *   IPv6, mapped or not), and the connection goes to the address checked (a DNS answer that changes
 *   between the check and the connection cannot move it into the host's network);
 * - a hard time limit, and the body is read only up to the asset limit.
 *
 * `allowHosts` (ASSET_URL_ALLOW_HOSTS) names hosts that may be private all the same: an intranet's
 * image server, or the test server on the loopback address. It does not widen anything else.
 *
 * It uses node:http(s) rather than the app's HTTP client (app/lib/http.ts) on purpose: the client
 * cannot pin the connection to a checked address, and a download is never retried.
 */

export interface DownloadOptions {
  /** Bytes at most (ASSET_MAX_BYTES): a longer body is refused with 413 while it arrives. */
  limit: number;
  allowHosts?: ReadonlySet<string>;
  timeoutMs?: number;
}

export interface Downloaded {
  body: Buffer;
  /** The response's Content-Type without parameters, or undefined. */
  mimeType: string | undefined;
  /** The last path segment of the final address, decoded (a name when the caller gives none). */
  fileName: string;
}

const MAX_REDIRECTS = 3;
const MAX_URL_LENGTH = 2048;

/** Addresses no download may reach (RFC 6890 and its successors' special-purpose ranges). */
const blocked = (() => {
  const list = new BlockList();
  for (const [net, bits] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.88.99.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ] as const)
    list.addSubnet(net, bits, "ipv4");
  for (const [net, bits] of [
    ["::", 128],
    ["::1", 128],
    ["64:ff9b::", 96],
    ["64:ff9b:1::", 48],
    ["100::", 64],
    ["2001::", 23],
    ["2001:db8::", 32],
    ["2002::", 16],
    ["fc00::", 7],
    ["fe80::", 10],
    ["fec0::", 10],
    ["ff00::", 8],
  ] as const)
    list.addSubnet(net, bits, "ipv6");
  return list;
})();

/** Whether an address is one a download may connect to (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return isPublicAddress(mapped);
    if (/^::ffff:/i.test(address)) return false;
    return !blocked.check(address, "ipv6");
  }
  return !blocked.check(address, "ipv4");
}

const refused = (message: string) => new ContentError(400, message, undefined, "ASSET_URL_REFUSED");

/** The address as a URL this download may follow, or a 400 saying why not. */
export function checkDownloadUrl(raw: string): URL {
  if (raw.length > MAX_URL_LENGTH) throw refused(`The file's address is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("The url is not an address: give the file's full address, e.g. https://example.org/logo.png.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refused(`Files are downloaded over http or https only, not ${url.protocol.replace(/:$/, "")}.`);
  if (url.username || url.password) throw refused("The file's address must not carry a user name or password.");
  if (!url.hostname) throw refused("The file's address names no host.");
  return url;
}

/** The host's addresses, all checked; the one to connect to. */
async function vettedAddress(url: URL, allowHosts: ReadonlySet<string>): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const allowed = allowHosts.has(host.toLowerCase()) || allowHosts.has(url.host.toLowerCase());
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw refused(`The host "${host.slice(0, 100)}" could not be found: check the file's address.`);
    }
  }
  if (!addresses.length) throw refused(`The host "${host.slice(0, 100)}" has no address.`);
  if (!allowed) {
    const inner = addresses.find((a) => !isPublicAddress(a.address));
    if (inner) throw refused(`The file's address leads into a private network (${inner.address}); files are downloaded from public addresses only.`);
  }
  return addresses[0]!;
}

/** Downloads a file by the rules above. Refusals and failures are 4xx ContentErrors with a message. */
export async function downloadPublicFile(raw: string, opts: DownloadOptions): Promise<Downloaded> {
  const allowHosts = opts.allowHosts ?? new Set<string>();
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  let url = checkDownloadUrl(raw);
  for (let hop = 0; ; hop++) {
    const target = await vettedAddress(url, allowHosts);
    const answer = await get(url, target, opts.limit, deadline);
    if (answer.redirect) {
      if (hop >= MAX_REDIRECTS) throw refused(`The file's address redirects more than ${MAX_REDIRECTS} times.`);
      url = checkDownloadUrl(new URL(answer.redirect, url).toString());
      continue;
    }
    const last = decodeSegment(url.pathname.split("/").filter(Boolean).pop() ?? "");
    return { body: answer.body!, mimeType: answer.mimeType, fileName: last || "download" };
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** One GET to the checked address (TLS still checked against the host name). */
function get(url: URL, target: { address: string; family: number }, limit: number, deadline: number): Promise<{ redirect?: string; body?: Buffer; mimeType?: string }> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if (typeof options === "object" && options && (options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const left = deadline - Date.now();
    if (left <= 0) return reject(refused("Downloading the file took too long; nothing was kept."));
    const req = client.get(url, { lookup: pinned, headers: { "user-agent": "praxisnetz-asset-download", accept: "*/*" }, timeout: left }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ redirect: res.headers.location });
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return reject(refused(`The file's address answered ${status}: nothing was downloaded.`));
      }
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > limit) {
        res.destroy();
        return reject(new ContentError(413, `The file is larger than ${limit} bytes.`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          res.destroy();
          reject(new ContentError(413, `The file is larger than ${limit} bytes.`));
        } else chunks.push(chunk);
      });
      res.on("end", () => resolve({ body: Buffer.concat(chunks), mimeType: res.headers["content-type"]?.split(";")[0]?.trim() || undefined }));
      res.on("error", () => reject(refused("The download broke off: nothing was kept.")));
    });
    req.on("timeout", () => req.destroy(refused("Downloading the file took too long; nothing was kept.")));
    req.on("error", (error) => reject(error instanceof ContentError ? error : refused(`The file could not be downloaded (${error.message.slice(0, 120)}).`)));
  });
}
