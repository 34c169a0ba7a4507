/**
 * The asset library's URL state (search, folder, page) and small display helpers. Pure functions,
 * used by the loader and the browser alike, so hostile query strings are tamed in one place.
 */

/** Squidex's id of the root asset folder; assets outside any folder carry it as parentId. */
export const ROOT_FOLDER = "00000000-0000-0000-0000-000000000000";
/** Assets per page: a grid of 4, 3 or 2 columns fills evenly. */
export const PAGE_SIZE = 24;
/** Beyond this page there is nothing a person would page to; it also bounds the SQL offset. */
export const MAX_PAGE = 10_000;
/** Search terms are file names: longer input is cut, not refused. */
export const MAX_SEARCH_LENGTH = 100;
/** As the store keeps file names (app/content/assets.ts sanitizeFileName). */
export const MAX_FILE_NAME_LENGTH = 200;
/** As the store keeps folder names (app/content/assets.ts checkFolderName). */
export const MAX_FOLDER_NAME_LENGTH = 100;

const FOLDER_ID = /^(?!\.)[A-Za-z0-9._~-]{1,100}$/;
const CONTROL = /[\u0000-\u001f\u007f]/g;
const HAS_CONTROL = /[\u0000-\u001f\u007f]/;

export interface AssetQuery {
  /** The file-name search, trimmed, without control characters; "" for none. */
  q: string;
  /** The folder shown (ROOT_FOLDER for the top). */
  folder: string;
  /** 1-based. */
  page: number;
}

/** Reads `?q=&folder=&page=`; anything malformed falls back to the default instead of failing. */
export function parseAssetQuery(params: URLSearchParams): AssetQuery {
  const q = (params.get("q") ?? "").replace(CONTROL, "").trim().slice(0, MAX_SEARCH_LENGTH);
  const folderParam = params.get("folder") ?? "";
  const folder = FOLDER_ID.test(folderParam) ? folderParam : ROOT_FOLDER;
  const pageParam = params.get("page") ?? "";
  const page = /^\d{1,6}$/.test(pageParam) ? Math.min(Math.max(Number(pageParam), 1), MAX_PAGE) : 1;
  return { q, folder, page };
}

/** The query string for a state, leaving defaults out (so the plain URL is the root, page 1). */
export function assetQueryString(query: Partial<AssetQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.folder && query.folder !== ROOT_FOLDER) params.set("folder", query.folder);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** A LIKE pattern matching `term` anywhere, with `%`, `_` and the escape character taken literally. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A new file name as the editor typed it, or why it cannot be one. */
export function checkFileName(input: string): { ok: true; fileName: string } | { ok: false; reason: "empty" | "tooLong" | "invalid" } {
  const fileName = input.trim();
  if (!fileName) return { ok: false, reason: "empty" };
  if (fileName.length > MAX_FILE_NAME_LENGTH) return { ok: false, reason: "tooLong" };
  // Names are shown and downloaded, never paths: no separators, no control characters, not "." or "..".
  if (/[/\\]/.test(fileName) || HAS_CONTROL.test(fileName) || /^\.+$/.test(fileName)) return { ok: false, reason: "invalid" };
  return { ok: true, fileName };
}

/** A folder name as the editor typed it, or why it cannot be one (the store checks the same). */
export function checkFolderName(input: string): { ok: true; folderName: string } | { ok: false; reason: "empty" | "tooLong" | "invalid" } {
  const folderName = input.trim();
  if (!folderName) return { ok: false, reason: "empty" };
  if (folderName.length > MAX_FOLDER_NAME_LENGTH) return { ok: false, reason: "tooLong" };
  if (/[/\\]/.test(folderName) || HAS_CONTROL.test(folderName) || /^\.+$/.test(folderName)) return { ok: false, reason: "invalid" };
  return { ok: true, folderName };
}

/** A folder id from a form: the root's id for "" or the root, the id when it can be one, else undefined. */
export function parseFolderId(input: string | undefined): string | undefined {
  const value = (input ?? "").trim();
  if (value === "" || value === ROOT_FOLDER) return ROOT_FOLDER;
  return FOLDER_ID.test(value) ? value : undefined;
}

/** "12 kB", "3.4 MB": sizes for people. */
export function formatBytes(bytes: number, language: "de" | "en"): string {
  const locale = language === "de" ? "de-DE" : "en-GB";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024).toLocaleString(locale)} kB`;
  return `${(bytes / (1024 * 1024)).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`;
}

/** The short type label shown instead of a thumbnail: the file's extension, else the MIME subtype. */
export function typeLabel(fileName: string, mimeType: string): string {
  const dot = fileName.lastIndexOf(".");
  const ext = dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1) : "";
  const label = /^[A-Za-z0-9]{1,8}$/.test(ext) ? ext : (mimeType.split("/")[1] ?? "").split(/[+;]/)[0] ?? "";
  return (label || "file").toUpperCase().slice(0, 8);
}

const RESIZABLE = new Set(["image/png", "image/jpeg", "image/webp", "image/avif"]);

/** The preview URL: a 320 px variant for raster images the server can scale, the file itself otherwise. */
export function thumbnailUrl(asset: { id: string; slug: string; mimeType: string }): string {
  const url = `/api/assets/${encodeURIComponent(asset.id)}/${encodeURIComponent(asset.slug)}`;
  return RESIZABLE.has(asset.mimeType) ? `${url}?width=320` : url;
}

/**
 * The message to show for a failed upload answer: the Squidex error body's `message` (and
 * details), else a fallback naming the status. The body is text from the server, shown as text.
 */
export function uploadErrorMessage(status: number, body: string, fallback: (status: number) => string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; details?: unknown };
    const message = typeof parsed.message === "string" ? parsed.message.trim() : "";
    const details = Array.isArray(parsed.details) ? parsed.details.filter((d): d is string => typeof d === "string") : [];
    const text = [message, ...details].filter(Boolean).join(" ");
    if (text) return text.slice(0, 500);
  } catch {
    // Not JSON (a proxy's error page, a reset connection): the status says enough.
  }
  return fallback(status);
}
