import { firstId } from "../needs";
import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-hero",
  needs: (block) => ({ assets: [firstId(block.image)].filter((id) => id !== undefined) }),
};
