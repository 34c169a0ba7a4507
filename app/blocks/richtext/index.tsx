import { text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function RichTextBlock({ block }: BlockProps) {
  // Sanitised on the server before it reached this component.
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <div className="prose-content space-y-4 leading-relaxed [&_a]:underline [&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:text-xl [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6" dangerouslySetInnerHTML={{ __html: text(block.html) }} />
    </section>
  );
}

export const definition: BlockDefinition = {
  name: "block-richtext",
  palette: { label: { de: "Fließtext", en: "Rich text" }, icon: "text", group: "content" },
  Component: RichTextBlock,
};
