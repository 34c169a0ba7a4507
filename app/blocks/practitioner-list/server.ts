import { listLimit } from "../needs";
import type { BlockServer } from "../types";
import { DEFAULT_LIMIT } from "./limit";

export const server: BlockServer = {
  name: "block-practitioner-list",
  needs: (block) => ({ practitionerList: listLimit(block.limit, DEFAULT_LIMIT) }),
};
