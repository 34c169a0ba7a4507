/** Limits on what a query from outside may ask for, checked before anything is parsed or run. */
export const MAX_IDS = 500;
export const MAX_FILTER_DEPTH = 32;
export const MAX_FILTER_LENGTH = 8 * 1024;
export const MAX_QUERY_JSON_LENGTH = 32 * 1024;
export const MAX_COLLECTION_URL_LENGTH = 32 * 1024;
/** JSON bodies (content data included) nest at most this deep; real pages stay far below it. */
export const MAX_JSON_DEPTH = 64;
/** Conditions in one filter (leaves), and words in one full-text search: the SQL stays shallow. */
export const MAX_FILTER_LEAVES = 256;
export const MAX_SEARCH_WORDS = 16;
/** How far a query may skip: beyond any real collection, within what both databases take as OFFSET. */
export const MAX_SKIP = 1_000_000_000;
