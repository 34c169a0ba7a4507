import { Icon } from "~/site/icon";
import { useTextStyle } from "~/site/site-context";
import type { BlockDefinition, BlockProps } from "../types";

function ColumnsBlock({ block }: BlockProps) {
  const columns = (block.columns as Array<{ heading?: string; text?: string; icon?: string }> | undefined) ?? [];
  const heading = useTextStyle("heading-3", "text-xl font-semibold");
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <div className="grid gap-8 page-md:grid-cols-3">
        {columns.map((c, i) => (
          <div key={i} className="rounded-lg border border-black/10 p-6">
            {c.icon ? <Icon name={c.icon} className="size-8 text-[var(--color-accent,#e9785d)]" /> : null}
            {/* The block has no heading of its own: its columns' headings are the section's (h2), styled as level 3. */}
            <h2 className={`mt-3 ${heading}`}>{c.heading}</h2>
            <p className="mt-2">{c.text}</p>
          </div>
        ))}
      </div>
    </section>
  );
}

export const definition: BlockDefinition = {
  name: "block-columns",
  palette: { label: { de: "Spalten", en: "Columns" }, icon: "columns", group: "content" },
  Component: ColumnsBlock,
};
