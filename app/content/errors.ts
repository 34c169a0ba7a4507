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
