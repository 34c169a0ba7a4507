import { listLimit } from "../needs";
import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-practitioner-smalllist",
  needs: (block) => ({ firstPractitioners: listLimit(block.limit, 5) }),
};
