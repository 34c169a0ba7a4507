/**
 * A colour as a hex code (#abc or #aabbcc): the theme's colours and a section's background. A module
 * of its own, so a visitor's page that checks a colour does not load the schema builder with it.
 */
export const HEX_COLOR_PATTERN = "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$";
