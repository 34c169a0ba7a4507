import { firstId } from "../needs";
import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-practitioner-single",
  needs: (block) => {
    const id = firstId(block.practitioner);
    return { practitioners: { ids: id ? [id] : [], slotsEach: 6 } };
  },
};
