import { listLimit } from "../needs";
import type { BlockServer } from "../types";
import { DEFAULT_LIMIT } from "./limit";

export const server: BlockServer = {
  name: "block-practitioner-smalllist",
  needs: (block) => ({ firstPractitioners: listLimit(block.limit, DEFAULT_LIMIT) }),
};
