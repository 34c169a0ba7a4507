import { listLimit } from "../needs";
import type { BlockServer } from "../types";
import { blockSchema } from "./schema";

export const server: BlockServer = {
  name: "block-practitioner-list",
  needs: (block) => ({ practitionerList: listLimit(block.limit, blockSchema) }),
};
