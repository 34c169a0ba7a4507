import { listLimit } from "../needs";
import type { BlockServer } from "../types";
import { blockSchema } from "./schema";

export const server: BlockServer = {
  name: "block-practitioner-smalllist",
  needs: (block) => ({ firstPractitioners: listLimit(block.limit, blockSchema) }),
};
