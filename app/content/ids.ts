import { randomUUID } from "node:crypto";
import path from "node:path";
import { badRequest } from "./errors";

/**
 * Ids of content items and assets: letters, digits and `._~-`, at most 100, never starting with a
 * dot (so never `.` or `..`, which would name a folder when an asset id becomes a path).
 */
const ID = /^(?!\.)[A-Za-z0-9._~-]{1,100}$/;

export function isValidId(id: unknown): id is string {
  return typeof id === "string" && ID.test(id);
}

export function requireValidId(id: unknown, what = "id"): string {
  if (!isValidId(id)) throw badRequest(`"${String(id).slice(0, 100)}" is not a valid ${what}: use letters, digits and ._~- (at most 100, not starting with a dot).`);
  return id;
}

/** `dir` joined with `parts`, checked to stay inside `dir` after resolving (no `..` escapes). */
export function pathInside(dir: string, ...parts: string[]): string {
  const root = path.resolve(dir);
  const target = path.resolve(root, ...parts);
  if (target === root || !target.startsWith(root + path.sep)) throw badRequest("That name points outside its folder.");
  return target;
}

/**
 * A new item or asset id: a UUID of version 7 (RFC 9562), the first 48 bits the time in ms and the
 * rest random. New rows land at the end of the id indexes instead of at random places in them, so a
 * write touches the same few index pages as the one before (and the ids sort by creation).
 */
export function newId(): string {
  const random = randomUUID();
  const ms = Date.now().toString(16).padStart(12, "0");
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${random.slice(15)}`;
}
