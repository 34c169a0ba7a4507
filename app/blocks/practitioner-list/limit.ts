/** How many practitioners the block shows when its "limit" is not set (the schema's default too). */
export const DEFAULT_LIMIT = 10;
