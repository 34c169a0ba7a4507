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
/** Characters of one full-text search (its words are counted after folding, so the text is bounded first). */
export const MAX_SEARCH_LENGTH = 1000;
/**
 * Sort keys of one query. A key on a JSON field is five ORDER BY terms; 500 keys made SQLite refuse
 * the statement ("too many terms") after two seconds of compiling it on the event loop. Past the
 * first key no side-table index helps: at 100 000 practitioners 3 keys held the event loop ~290 ms,
 * 10 keys ~630 ms (bench --only=hostile). No screen or client here sorts by more than two.
 */
export const MAX_SORT_KEYS = 5;
/**
 * Sort keys of a visitor's query (the public `/api/rest`): one key is served by its side-table index
 * (~20 ms at 100 000 practitioners), a second one already sorts in SQLite on the event loop (3 keys
 * ~120 ms, 5 keys ~300 ms). The site's own pages never ask visitors' queries to sort by more.
 */
export const MAX_VISITOR_SORT_KEYS = 1;
/**
 * How far a visitor's query may skip: an OFFSET walks its index entry by entry on the event loop
 * (90 000 ~120 ms at 100 000 practitioners, 10 000 ~15 ms). Further on, a client pages by a filter on
 * its sort field (`data/name/iv gt '…'`), which an index serves at any depth.
 */
export const MAX_VISITOR_SKIP = 10_000;
/** Values of one `in` condition, and of all conditions of one filter together. */
export const MAX_IN_VALUES = 500;
export const MAX_FILTER_VALUES = 1000;
/** How far a query may skip: beyond any real collection, within what both databases take as OFFSET. */
export const MAX_SKIP = 1_000_000_000;
