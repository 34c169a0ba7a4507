/**
 * Blocks whose fields the forms engine found invalid (fields.tsx keeps it up to date). Autosave
 * waits while any is: the store would refuse the draft, and the editor sees why in the panel.
 */
export const invalidBlocks = new Set<string>();
