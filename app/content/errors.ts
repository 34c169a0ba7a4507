/** One error type for the content service; its fields are the JSON error body `{message, details?, statusCode}`. */
export class ContentError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly details?: string[],
    public readonly errorCode?: string,
  ) {
    super(message);
    this.name = "ContentError";
  }

  toJSON() {
    return {
      message: this.message,
      ...(this.details?.length ? { details: this.details } : {}),
      statusCode: this.statusCode,
      ...(this.errorCode ? { errorCode: this.errorCode } : {}),
    };
  }
}

export const validationError = (details: string[]) => new ContentError(400, "Validation error", details);
export const badRequest = (message: string, details?: string[]) => new ContentError(400, message, details);
export const notFound = (message: string) => new ContentError(404, message);
export const versionConflict = (expected: number, actual: number) =>
  new ContentError(
    412,
    `Version conflict: expected version ${expected}, but the item is at version ${actual}.`,
    undefined,
    "OBJECT_VERSION_CONFLICT",
  );
export const alreadyExists = (message: string) => new ContentError(409, message, undefined, "OBJECT_CONFLICT");

/** How long a client should wait before trying again when the database is busy (seconds). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Driver errors that mean "busy, not broken": SQLite's lock still held when `busy_timeout` ran out
 * (SQLITE_BUSY and its variants, SQLITE_LOCKED), PostgreSQL's lock timeout (55P03), serialization
 * failure (40001) and deadlock (40P01). The write was not made and the same request can succeed a
 * moment later: a 503 with Retry-After, not a 500.
 */
export function isStoreBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (/^SQLITE_(BUSY|LOCKED)/.test(code) || code === "55P03" || code === "40001" || code === "40P01");
}

/** `error` as the content service's error, when it is one or a busy database; otherwise undefined. */
export function contentErrorOf(error: unknown): ContentError | undefined {
  if (error instanceof ContentError) return error;
  if (isStoreBusy(error)) return new ContentError(503, "The content store is busy; try again in a moment.", undefined, "STORE_BUSY");
  return undefined;
}
