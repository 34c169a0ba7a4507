import { createContext, useContext } from "react";

/**
 * Whether a block is on the editor's canvas (edit mode) rather than on the public page. Blocks with
 * an edit variant (§1: book appointment) show it only there; the public page never sets it.
 */
export const EditModeContext = createContext(false);

export const useEditMode = () => useContext(EditModeContext);
