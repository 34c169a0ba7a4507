import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-practitioner-overview",
  needs: () => ({ directory: true }),
};
