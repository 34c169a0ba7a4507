import { clientChunks } from "~/lib/client-chunks.server";

/**
 * The URLs of edit mode's chunk and the chunks it imports, so the edit-mode page asks for them with
 * the page's own scripts instead of after hydration starts (it would otherwise find out about them
 * only when React reaches the lazy import). None in development (no build).
 */
export function editorPreloads(): string[] {
  return clientChunks("app/editor/edit-mode.tsx");
}
