import { createContext, useContext } from "react";
import type { Block, PageBlockData } from "~/blocks/types";
import type { Language } from "~/i18n/languages";
import type { EditorTexts } from "./texts";
import type { EditorPayload, EditorSchema } from "./types";

/**
 * What does not change while editing: the schemas, the page's loaded data, the texts. One context
 * value made once, so reading it never re-renders anything.
 */
export interface EditorEnv {
  payload: EditorPayload;
  schemas: ReadonlyMap<string, EditorSchema>;
  /** The editor's own language (admin language), for its texts and validation messages. */
  ui: Language;
  t: EditorTexts;
  /** The page's loaded block data (practitioners, assets…), with the asset library's images added. */
  data: PageBlockData;
  /** Blocks as the server prepared them (rich text sanitised), by id: shown until the block is edited. */
  prepared: ReadonlyMap<string, Block>;
  /** The block objects the editor started with, by id: while a block is still this object, `prepared` shows it. */
  initial: ReadonlyMap<string, unknown>;
  announce(message: string): void;
  /** Loads the blocks' data again (after a practitioner, an image or a list length was chosen, or blocks were added). */
  refreshData(): void;
  /** Tests only: told of every canvas block render (the render-count test). */
  probe?: EditorProbe;
  /** A block kind's name in the editor's language. */
  label(schemaId: string): string;
}

export const EditorEnvContext = createContext<EditorEnv | null>(null);

export function useEnv(): EditorEnv {
  const env = useContext(EditorEnvContext);
  if (!env) throw new Error("useEnv outside the editor");
  return env;
}

/** What a test can watch: each render of a canvas block, by id. */
export interface EditorProbe {
  blockRendered(id: string): void;
  /** The block's component ran (not called while a block shows the server's markup). */
  bodyRendered?(id: string): void;
  /** A part of the editor around the canvas rendered ("shell", "toolbar"). */
  partRendered?(part: string): void;
}
