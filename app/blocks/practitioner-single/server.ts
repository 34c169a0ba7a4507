import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-practitioner-single",
  needs: (block) => ({ practitioners: { ids: Array.isArray(block.practitioner) ? block.practitioner.map(String) : [], slotsEach: 6 } }),
};
