import { assetIds } from "../needs";
import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-image",
  needs: (block) => ({ assets: assetIds(block.image) }),
};
