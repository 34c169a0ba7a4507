// The pages our side of `npm run bench:editor` edits: n blocks of four simple kinds in turn
// (block-richtext, block-cta, block-accordion, block-image; app/blocks/*/schema.ts), each with a
// unique id. Nested (at 200): 30 of the n blocks sit in six block-section containers of five
// (a block-section's `blocks` field holds child blocks), placed away from the blocks the figures
// use: position 10, the active block, the dragged block and the last one.

const KINDS = ["block-richtext", "block-cta", "block-accordion", "block-image"];
const SECTIONS = 6;
const PER_SECTION = 5;

function leaf(kind, k, id) {
  switch (kind) {
    case "block-richtext":
      return { schemaId: kind, id, html: `<p>Absatz ${k}: Physiotherapie und Osteopathie in Ihrer Nähe, freie Termine online buchen.</p>` };
    case "block-cta":
      return { schemaId: kind, id, heading: `Handlungsaufforderung ${k}`, text: `Text ${k}`, label: "Mehr erfahren", link: "/" };
    case "block-accordion":
      return { schemaId: kind, id, heading: `Fragen ${k}`, items: [{ question: `Frage ${k}?`, answer: `Antwort ${k}.` }] };
    default:
      return { schemaId: kind, id, image: ["asset-placeholder"], alt: `Bild ${k}`, caption: `Bildunterschrift ${k}` };
  }
}

/**
 * The page's data for the Squidex API and the layout the driver needs: `ids` (top-level ids in
 * order), `lastId` (the last block in document order), `activeId` (a top-level block-cta near the
 * middle), `dragId` (top-level block 150 at 200, the 3/4 block otherwise; it goes to position 10).
 */
export function buildPage(n, { slug, nested, uuid }) {
  const leaves = Array.from({ length: n }, (_, i) => leaf(KINDS[i % 4], i + 1, uuid()));
  const nestedCount = nested ? SECTIONS * PER_SECTION : 0;
  const topLeaves = n - nestedCount;
  const dragIndex = n >= 200 ? 149 : Math.round((n * 3) / 4) - 1;
  // The top-level list: leaves, with the sections inserted at fixed top-level positions.
  const sectionAt = nested ? new Set([30, 60, 90, 120, 165, 170].slice(0, SECTIONS)) : new Set();
  const top = [];
  let next = 0;
  let nestedNext = topLeaves;
  const topTotal = topLeaves + sectionAt.size;
  for (let pos = 0; pos < topTotal; pos++) {
    if (sectionAt.has(pos)) {
      const children = leaves.slice(nestedNext, nestedNext + PER_SECTION);
      nestedNext += PER_SECTION;
      top.push({ schemaId: "block-section", id: uuid(), heading: `Abschnitt ${pos}`, blocks: children });
    } else {
      top.push(leaves[next++]);
    }
  }
  const ids = top.map((b) => b.id);
  const last = top.at(-1);
  const lastId = last.schemaId === "block-section" ? last.blocks.at(-1).id : last.id;
  let active = Math.floor(top.length / 2);
  while (top[active].schemaId !== "block-cta") active++;
  if (top[dragIndex].schemaId === "block-section") throw new Error("the dragged block must not be a section");
  // The English blocks: the same, each with an id of its own.
  const en = JSON.parse(JSON.stringify(top), (key, value) => (key === "id" ? uuid() : value));
  const data = {
    title: { de: `Editor-Benchmark ${n}`, en: `Editor benchmark ${n}` },
    seo: {
      de: { schemaId: "component-seo", slug, seotitle: `Editor-Benchmark ${n}` },
      en: { schemaId: "component-seo", slug, seotitle: `Editor benchmark ${n}` },
    },
    blocks: { de: top, en },
  };
  return { slug, data, nested, nestedCount, layout: { ids, lastId, activeId: ids[active], dragId: ids[dragIndex] } };
}
