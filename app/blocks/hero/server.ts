import { assetIds } from "../needs";
import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-hero",
  needs: (block) => ({ assets: assetIds(block.image) }),
};
