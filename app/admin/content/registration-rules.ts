/** Longest reason an editor may give for rejecting a registration: a few sentences, not a letter. Shared by the page and the server. */
export const MAX_REASON_LENGTH = 2000;
