import { own } from "~/lib/input";
import { AssetImage } from "../asset-image";
import { text } from "../block-section";
import { firstId } from "../needs";
import type { BlockDefinition, BlockProps } from "../types";

function ImageBlock({ block, data, index }: BlockProps) {
  const image = firstId(block.image);
  return (
    <figure className="mx-auto max-w-5xl px-4 py-8">
      <AssetImage asset={image ? own(data.assets, image) : undefined} alt={text(block.alt)} eager={index < 2} className="h-auto w-full rounded-lg" />
      {block.caption ? <figcaption className="mt-2 text-sm text-black/80" data-edit-field="caption">{text(block.caption)}</figcaption> : null}
    </figure>
  );
}

export const definition: BlockDefinition = {
  name: "block-image",
  palette: { label: { de: "Bild", en: "Image" }, icon: "image", group: "content" },
  Component: ImageBlock,
};
