import { $createLinkNode, $isLinkNode, $toggleLink, LinkNode } from "@lexical/link";
import { $insertList, $isListNode, $removeList, ListItemNode, ListNode } from "@lexical/list";
import { LexicalComposer, type InitialConfigType } from "@lexical/react/LexicalComposer";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { HistoryPlugin } from "@lexical/react/LexicalHistoryPlugin";
import { LinkPlugin } from "@lexical/react/LexicalLinkPlugin";
import { ListPlugin } from "@lexical/react/LexicalListPlugin";
import { RichTextPlugin } from "@lexical/react/LexicalRichTextPlugin";
import { $createHeadingNode, $isHeadingNode, HeadingNode } from "@lexical/rich-text";
import { $setBlocksType } from "@lexical/selection";
import { $findMatchingParent, mergeRegister } from "@lexical/utils";
import {
  $createParagraphNode,
  $createTextNode,
  $getNodeByKey,
  $getSelection,
  $isElementNode,
  $isRangeSelection,
  $isTextNode,
  $setSelection,
  type BaseSelection,
  CLEAR_HISTORY_COMMAND,
  COMMAND_PRIORITY_CRITICAL,
  type EditorThemeClasses,
  FORMAT_TEXT_COMMAND,
  IS_BOLD,
  IS_ITALIC,
  type LexicalEditor,
  ParagraphNode,
  type PointType,
  SKIP_DOM_SELECTION_TAG,
  TextNode,
} from "lexical";
import { type KeyboardEvent, memo, type ReactNode, type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { isAllowedLinkAddress } from "./link-address";
import { $richTextHtml, $setRichTextHtml } from "./rich-text-html";
import { log } from "~/lib/log";

export interface RichTextFieldProps {
  id: string;
  label: string;
  /** HTML, as the block stores it. */
  value: string;
  /** The new HTML (only p, br, h2, h3, ul, ol, li, a[href], strong, em; "" when empty), once per actual change. */
  onChange(html: string): void;
  language: "de" | "en";
  describedBy?: string;
}

const TEXTS = {
  de: {
    toolbar: "Formatierung",
    paragraph: "Absatz",
    h2: "Überschrift 2",
    h3: "Überschrift 3",
    bold: "Fett",
    italic: "Kursiv",
    bullet: "Aufzählung",
    number: "Nummerierte Liste",
    link: "Link einfügen",
    unlink: "Link entfernen",
    address: "Linkadresse",
    addressHint: "https://…, mailto:…, tel:… oder ein Pfad wie /ueber-uns",
    addressRefused: "Diese Adresse geht nicht. Erlaubt sind Adressen mit http:// oder https://, mailto:, tel: oder ein Pfad, der mit / beginnt.",
    apply: "Übernehmen",
    cancel: "Abbrechen",
  },
  en: {
    toolbar: "Formatting",
    paragraph: "Paragraph",
    h2: "Heading 2",
    h3: "Heading 3",
    bold: "Bold",
    italic: "Italic",
    bullet: "Bulleted list",
    number: "Numbered list",
    link: "Insert link",
    unlink: "Remove link",
    address: "Link address",
    addressHint: "https://…, mailto:…, tel:… or a path such as /en/about-us",
    addressRefused: "This address cannot be used. Allowed are addresses with http:// or https://, mailto:, tel: or a path starting with /.",
    apply: "Apply",
    cancel: "Cancel",
  },
} as const;

type Texts = (typeof TEXTS)[keyof typeof TEXTS];

/** What the editor shows while editing; the stored HTML carries none of these classes. */
const THEME: EditorThemeClasses = {
  paragraph: "my-2",
  heading: { h2: "mt-4 mb-2 text-xl font-semibold", h3: "mt-3 mb-2 text-lg font-semibold" },
  list: {
    ul: "my-2 list-disc pl-6",
    ol: "my-2 list-decimal pl-6",
    nested: { listitem: "list-none" },
  },
  link: "text-blue-800 underline",
  text: { bold: "font-bold", italic: "italic" },
};

/** Marks the updates that take a new value from outside: they are not the author's edits. */
const EXTERNAL_VALUE_TAG = "praxisnetz-external-value";

/**
 * A rich-text field for the editor, on Lexical: paragraphs, headings 2 and 3, bold, italic, lists
 * and links, with a toolbar. It writes only the HTML the pages allow (see rich-text-html.ts).
 * Render it in the browser only, loaded with React.lazy (as app/routes/test-rich-text.tsx does):
 * Lexical edits a live DOM, and it is a large chunk the public pages must not load.
 */
export function RichTextField(props: RichTextFieldProps) {
  const { id, label, language, describedBy } = props;
  const texts = TEXTS[language];
  const wrapperRef = useRef<HTMLDivElement>(null);
  const firstValue = useRef(props.value);
  const initialConfig = useMemo<InitialConfigType>(
    () => ({
      namespace: "praxisnetz-rich-text",
      nodes: [HeadingNode, ListNode, ListItemNode, LinkNode],
      theme: THEME,
      // An update that failed is rolled back by Lexical; the console is where a developer sees why.
      onError: (error) => log.error("The rich-text editor failed", error),
      // Read once, when the field mounts; later values arrive through ValuePlugin.
      editorState: (editor) => $setRichTextHtml(editor, firstValue.current),
    }),
    [],
  );
  return (
    <div ref={wrapperRef} data-rich-text-field className="rounded-md border border-slate-300 bg-white focus-within:border-blue-700 focus-within:ring-2 focus-within:ring-blue-700/30">
      <LexicalComposer initialConfig={initialConfig}>
        <FieldLabel id={id} label={label} />
        <Toolbar id={id} label={label} texts={texts} />
        <RichTextPlugin
          contentEditable={
            <ContentEditable
              id={id}
              aria-label={label}
              aria-describedby={describedBy}
              aria-multiline
              className="min-h-32 px-3 py-2 text-base leading-relaxed outline-none"
            />
          }
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={isAllowedLinkAddress} />
        <AllowedFormatsPlugin />
        <ValuePlugin value={props.value} onChange={props.onChange} wrapperRef={wrapperRef} />
      </LexicalComposer>
    </div>
  );
}

/** The visible label; the text area itself is named by aria-label, which a div cannot get from <label>. */
function FieldLabel({ id, label }: { id: string; label: string }) {
  const [editor] = useLexicalComposerContext();
  return (
    // A click on it does what a click on a <label> does: puts the cursor in the text.
    <div id={`${id}-label`} className="border-b border-slate-200 px-3 pt-2 pb-1 text-sm font-semibold text-slate-800" onClick={() => editor.focus()}>
      {label}
    </div>
  );
}

/**
 * Keeps the document to what the stored HTML can say, so the editor shows what will be saved:
 * pasted underline, code or colours, alignment and indents go, h1 becomes h2 and h4–h6 become h3,
 * and the format shortcuts other than bold and italic (Ctrl+U and the like) do nothing.
 */
function AllowedFormatsPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      mergeRegister(
        editor.registerCommand(FORMAT_TEXT_COMMAND, (format) => format !== "bold" && format !== "italic", COMMAND_PRIORITY_CRITICAL),
        editor.registerNodeTransform(TextNode, (node) => {
          const kept = node.getFormat() & (IS_BOLD | IS_ITALIC);
          if (kept !== node.getFormat()) node.setFormat(kept);
          if (node.getStyle() !== "") node.setStyle("");
        }),
        editor.registerNodeTransform(ParagraphNode, (node) => {
          if (node.getFormatType() !== "") node.setFormat("");
          if (node.getIndent() !== 0) node.setIndent(0);
        }),
        editor.registerNodeTransform(HeadingNode, (node) => {
          const tag = node.getTag() === "h1" || node.getTag() === "h2" ? "h2" : "h3";
          if (node.getTag() !== tag) node.setTag(tag);
          if (node.getFormatType() !== "") node.setFormat("");
          if (node.getIndent() !== 0) node.setIndent(0);
        }),
      ),
    [editor],
  );
  return null;
}

/**
 * Reports the author's changes and takes in values from outside. The HTML is written only when
 * the document changed (a moved cursor changes nothing) and handed on only when it differs from
 * the last one, so a keystroke costs one walk over the block's text.
 */
function ValuePlugin({ value, onChange, wrapperRef }: { value: string; onChange(html: string): void; wrapperRef: RefObject<HTMLDivElement | null> }) {
  const [editor] = useLexicalComposerContext();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // The last HTML the document stood for, and the last value this field knows of (its own
  // output, or a value it took in): a `value` equal to it is our own change coming back.
  const lastHtml = useRef<string | null>(null);
  const known = useRef(value);

  useEffect(() => {
    lastHtml.current = editor.getEditorState().read($richTextHtml);
    return editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
      if (tags.has(EXTERNAL_VALUE_TAG)) return;
      if (dirtyElements.size === 0 && dirtyLeaves.size === 0) return;
      const html = editorState.read($richTextHtml);
      if (html === lastHtml.current) return;
      lastHtml.current = html;
      known.current = html;
      onChangeRef.current(html);
    });
  }, [editor]);

  useEffect(() => {
    if (value === known.current) return;
    // While the author is in the field their typing wins over a value that lags behind it.
    if (wrapperRef.current?.contains(document.activeElement)) return;
    known.current = value;
    editor.update(
      () => {
        $setRichTextHtml(editor, value);
        $setSelection(null);
      },
      // Discrete: committed now, so the HTML read next is the new one, and the history cleared
      // next already holds this update.
      { tag: [EXTERNAL_VALUE_TAG, SKIP_DOM_SELECTION_TAG], discrete: true },
    );
    lastHtml.current = editor.getEditorState().read($richTextHtml);
    // The field's own undo steps belong to the text that was just replaced.
    editor.dispatchCommand(CLEAR_HISTORY_COMMAND, undefined);
  }, [editor, value, wrapperRef]);

  return null;
}

type Block = "paragraph" | "h2" | "h3" | "bullet" | "number";

interface ToolbarState {
  block: Block;
  bold: boolean;
  italic: boolean;
  link: boolean;
}

const NO_SELECTION: ToolbarState = { block: "paragraph", bold: false, italic: false, link: false };

function $toolbarState(): ToolbarState {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return NO_SELECTION;
  const anchor = selection.anchor.getNode();
  const list = $findMatchingParent(anchor, $isListNode);
  const top = anchor.getKey() === "root" ? null : anchor.getTopLevelElement();
  const block: Block = list ? (list.getListType() === "number" ? "number" : "bullet") : $isHeadingNode(top) ? (top.getTag() === "h3" ? "h3" : "h2") : "paragraph";
  const inLink = (node: typeof anchor) => $findMatchingParent(node, $isLinkNode) !== null;
  return { block, bold: selection.hasFormat("bold"), italic: selection.hasFormat("italic"), link: inLink(anchor) || inLink(selection.focus.getNode()) };
}

function sameState(a: ToolbarState, b: ToolbarState): boolean {
  return a.block === b.block && a.bold === b.bold && a.italic === b.italic && a.link === b.link;
}

/** Turns the blocks under the cursor into `block`, or back into paragraphs when they already are. */
function setBlock(editor: LexicalEditor, current: Block, block: Block) {
  editor.update(() => {
    const target: Block = current === block ? "paragraph" : block;
    if (current === "bullet" || current === "number") {
      if (target === "bullet" || target === "number") {
        $insertList(target);
        return;
      }
      $removeList();
    }
    if (target === "bullet" || target === "number") {
      $insertList(target);
      return;
    }
    const selection = $getSelection();
    if (!$isRangeSelection(selection)) return;
    $setBlocksType(selection, () => (target === "paragraph" ? $createParagraphNode() : $createHeadingNode(target)));
  });
}

/** Whether a point of a selection taken earlier still fits the document (the author may have typed since). */
function $pointStillThere(point: PointType): boolean {
  const node = $getNodeByKey(point.key);
  if (point.type === "text") return $isTextNode(node) && point.offset <= node.getTextContentSize();
  return $isElementNode(node) && point.offset <= node.getChildrenSize();
}

interface LinkForm {
  address: string;
  refused: boolean;
  /** The text the link is for: focus moves to the address input, and the editor's cursor with it. */
  selection: BaseSelection | null;
}

// Toolbar icons as strokes on a 20×20 grid: drawn here rather than taken from an icon font or
// emoji, which render differently (or not at all) from one system to the next.
const BULLET_ICON = ["M3.5 5.5h.01", "M3.5 10h.01", "M3.5 14.5h.01", "M7.5 5.5h9", "M7.5 10h9", "M7.5 14.5h9"];
const NUMBER_ICON = ["M3 4.5l1.5-1v4", "M3 12.5a1.5 1.5 0 0 1 3 0c0 1-3 2-3 3.5h3", "M8.5 5.5h8", "M8.5 10h8", "M8.5 14.5h8"];
const LINK_ICON = ["M8.5 11.5l3-3", "M7 9.5l-1.8 1.8a2.5 2.5 0 0 0 3.5 3.5L10.5 13", "M13 10.5l1.8-1.8a2.5 2.5 0 0 0-3.5-3.5L9.5 7"];
const UNLINK_STROKE = "M3.5 3.5l13 13";

function Icon({ paths }: { paths: readonly string[] }) {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" className="inline-block align-[-3px]">
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

// Memoised: the field re-renders with every value it reports, the toolbar only when its state changes.
const Toolbar = memo(function Toolbar({ id, label, texts }: { id: string; label: string; texts: Texts }) {
  const [editor] = useLexicalComposerContext();
  const [state, setState] = useState<ToolbarState>(NO_SELECTION);
  const [linkForm, setLinkForm] = useState<LinkForm | null>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(
    () =>
      editor.registerUpdateListener(({ editorState }) => {
        const next = editorState.read($toolbarState);
        setState((previous) => (sameState(previous, next) ? previous : next));
      }),
    [editor],
  );

  function openLinkForm() {
    const form = editor.getEditorState().read((): LinkForm => {
      const selection = $getSelection();
      const link = $isRangeSelection(selection) ? $findMatchingParent(selection.anchor.getNode(), $isLinkNode) : null;
      return { address: link?.getURL() ?? "", refused: false, selection: selection?.clone() ?? null };
    });
    setLinkForm(form);
  }

  function applyLink() {
    if (!linkForm) return;
    const address = linkForm.address.trim();
    if (!isAllowedLinkAddress(address)) {
      setLinkForm({ ...linkForm, refused: true });
      return;
    }
    const saved = linkForm.selection;
    editor.update(() => {
      // Back to the text the form was opened for, if it is still there.
      if ($isRangeSelection(saved) && $pointStillThere(saved.anchor) && $pointStillThere(saved.focus)) $setSelection(saved.clone());
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) return;
      if (selection.isCollapsed() && !$findMatchingParent(selection.anchor.getNode(), $isLinkNode)) {
        // Nothing selected: the address becomes the link's text.
        selection.insertNodes([$createLinkNode(address).append($createTextNode(address))]);
      } else {
        $toggleLink(address);
      }
    });
    setLinkForm(null);
    editor.focus();
  }

  function closeLinkForm() {
    setLinkForm(null);
    editor.focus();
  }

  function removeLink() {
    editor.update(() => $toggleLink(null));
  }

  const items: Array<{ key: string; name: string; glyph: ReactNode; pressed?: boolean; disabled?: boolean; run(): void; groupStart?: boolean }> = [
    { key: "paragraph", name: texts.paragraph, glyph: "¶", pressed: state.block === "paragraph", run: () => setBlock(editor, state.block, "paragraph") },
    { key: "h2", name: texts.h2, glyph: "H2", pressed: state.block === "h2", run: () => setBlock(editor, state.block, "h2") },
    { key: "h3", name: texts.h3, glyph: "H3", pressed: state.block === "h3", run: () => setBlock(editor, state.block, "h3") },
    { key: "bold", name: texts.bold, glyph: <b>B</b>, pressed: state.bold, run: () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, "bold"), groupStart: true },
    { key: "italic", name: texts.italic, glyph: <i className="font-serif">I</i>, pressed: state.italic, run: () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, "italic") },
    { key: "bullet", name: texts.bullet, glyph: <Icon paths={BULLET_ICON} />, pressed: state.block === "bullet", run: () => setBlock(editor, state.block, "bullet"), groupStart: true },
    { key: "number", name: texts.number, glyph: <Icon paths={NUMBER_ICON} />, pressed: state.block === "number", run: () => setBlock(editor, state.block, "number") },
    { key: "link", name: texts.link, glyph: <Icon paths={LINK_ICON} />, run: openLinkForm, groupStart: true },
    { key: "unlink", name: texts.unlink, glyph: <Icon paths={[...LINK_ICON, UNLINK_STROKE]} />, disabled: !state.link, run: removeLink },
  ];

  // One stop for Tab, arrows between the buttons (the WAI-ARIA toolbar pattern): Tab goes from
  // the toolbar straight to the text.
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, (i: number) => number> = {
      ArrowRight: (i) => (i + 1) % items.length,
      ArrowLeft: (i) => (i - 1 + items.length) % items.length,
      Home: () => 0,
      End: () => items.length - 1,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move(focusIndex);
    setFocusIndex(next);
    buttons.current[next]?.focus();
  }

  const inputId = `${id}-link-address`;
  const hintId = `${id}-link-hint`;
  const errorId = `${id}-link-error`;
  return (
    <>
      <div role="toolbar" aria-label={`${texts.toolbar}: ${label}`} aria-controls={id} className="flex flex-wrap items-center gap-1 border-b border-slate-200 px-2 py-1" onKeyDown={onKeyDown}>
        {items.map((item, index) => (
          <button
            key={item.key}
            ref={(el) => {
              buttons.current[index] = el;
            }}
            type="button"
            aria-label={item.name}
            title={item.name}
            aria-pressed={item.pressed}
            // aria-disabled rather than disabled: the button stays reachable with the arrows.
            aria-disabled={item.disabled || undefined}
            tabIndex={index === focusIndex ? 0 : -1}
            className={`${item.groupStart ? "ml-2 " : ""}min-w-9 rounded px-2 py-1 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-pressed:bg-slate-200 aria-pressed:font-semibold`}
            // Keeps the cursor (and the selection) in the text when a button is clicked.
            onMouseDown={(event) => event.preventDefault()}
            onFocus={() => setFocusIndex(index)}
            onClick={() => {
              if (item.disabled) return;
              item.run();
              // Back to the text, so the author types on (Lexical does this itself after some
              // commands; doing it always keeps the toolbar predictable). Shift+Tab returns to
              // this button: the toolbar remembers it.
              if (item.key !== "link") editor.focus();
            }}
          >
            <span aria-hidden="true">{item.glyph}</span>
          </button>
        ))}
      </div>
      {linkForm && (
        <div className="flex flex-wrap items-start gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2">
          <label htmlFor={inputId} className="self-center text-sm font-medium text-slate-800">
            {texts.address}
          </label>
          <div className="min-w-48 flex-1">
            <input
              id={inputId}
              type="text"
              inputMode="url"
              autoComplete="off"
              autoFocus
              value={linkForm.address}
              aria-invalid={linkForm.refused || undefined}
              aria-describedby={linkForm.refused ? `${errorId} ${hintId}` : hintId}
              className="w-full rounded border border-slate-400 px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-blue-700 aria-invalid:border-red-700"
              onChange={(event) => setLinkForm({ ...linkForm, address: event.target.value, refused: false })}
              onKeyDown={(event) => {
                // Enter applies (and never submits a form around the field); Escape goes back to the text.
                if (event.key === "Enter") {
                  event.preventDefault();
                  applyLink();
                } else if (event.key === "Escape") {
                  event.preventDefault();
                  closeLinkForm();
                }
              }}
            />
            <p id={hintId} className="mt-1 text-xs text-slate-700">
              {texts.addressHint}
            </p>
            {linkForm.refused && (
              <p id={errorId} role="alert" data-link-refused className="mt-1 text-sm text-red-800">
                {texts.addressRefused}
              </p>
            )}
          </div>
          <button type="button" className="rounded bg-blue-800 px-3 py-1 text-sm font-medium text-white hover:bg-blue-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700" onClick={applyLink}>
            {texts.apply}
          </button>
          <button type="button" className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700" onClick={closeLinkForm}>
            {texts.cancel}
          </button>
        </div>
      )}
    </>
  );
});
