import { describe, expect, it } from "vitest";
import { ContentError } from "~/content/errors";
import { submissionProblem, submissionStatus } from "./guard.server";

describe("what a form shows for a refused submission", () => {
  it("a content service that cannot be reached: nothing saved, in the visitor's language", () => {
    const down = new ContentError(503, "The content service (Squidex) cannot be reached: nothing was saved.", undefined, "UPSTREAM_UNAVAILABLE");
    expect(submissionStatus(down)).toBe(503);
    expect(submissionProblem(down, "de").message).toMatch(/nicht erreichbar.*nichts gespeichert/);
    expect(submissionProblem(down, "en").message).toMatch(/cannot be reached.*nothing was saved/);
  });

  it("any other failure of ours is the general message, never its inner words", () => {
    expect(submissionProblem(new Error("SQLITE_BUSY: database is locked"), "de").message).toBe("Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.");
    expect(submissionProblem(new ContentError(500, "boom"), "en").message).toBe("That did not work. Please try again.");
  });
});
