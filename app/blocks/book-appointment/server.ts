import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-book-appointment",
  needs: () => ({ soonestSlots: 12 }),
};
