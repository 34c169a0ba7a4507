import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { storeMessage } from "~/admin/store-messages";
import { useRevalidator } from "react-router";
import { formatBytes, uploadErrorMessage } from "./query";
import { sendUpload, uploadUrl } from "./upload";
import { log } from "~/lib/log";

/** The panel's texts, in the screen's language (kept with the screen's texts). */
export interface UploadTexts {
  uploadTitle: string;
  dropHint: string;
  chooseFiles: string;
  uploading: string;
  uploadDone: string;
  uploadFailed: (status: number) => string;
  tooLarge: (max: string) => string;
  progressOf: (name: string) => string;
  clearFinished: string;
}

interface Entry {
  key: number;
  file: File;
}

/**
 * Upload by dropping files on the zone or choosing them with the (visible, keyboard-usable) file
 * input. Every file gets a row with its own progress bar and answer; a 201 is success (§8).
 */
export function UploadPanel(props: { appName: string; folder: string; maxBytes: number; language: "de" | "en"; text: UploadTexts }) {
  const { text } = props;
  const [entries, setEntries] = useState<Entry[]>([]);
  const [finished, setFinished] = useState<Set<number>>(new Set());
  const [over, setOver] = useState(false);
  const nextKey = useRef(1);
  const inputId = useId();

  const add = (files: FileList | null) => {
    if (!files?.length) return;
    const added = [...files].map((file) => ({ key: nextKey.current++, file }));
    setEntries((current) => [...added.reverse(), ...current]);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    add(event.dataTransfer.files);
  };
  const markFinished = (key: number) => setFinished((current) => new Set(current).add(key));

  return (
    <section aria-labelledby={`${inputId}-title`} className="space-y-3 rounded border border-slate-300 bg-white p-4">
      <h2 id={`${inputId}-title`} className="text-lg font-bold">
        {text.uploadTitle}
      </h2>
      <div
        data-drop-zone
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={`rounded border-2 border-dashed p-6 text-center ${over ? "border-[#0f5e63] bg-teal-50" : "border-slate-400"}`}
      >
        <p className="mb-3 text-slate-700">{text.dropHint}</p>
        <label htmlFor={inputId} className="mb-1 block font-semibold">
          {text.chooseFiles}
        </label>
        <input
          id={inputId}
          type="file"
          multiple
          className="mx-auto block max-w-full text-sm file:mr-3 file:rounded file:border file:border-slate-400 file:bg-white file:px-3 file:py-2 file:font-semibold"
          onChange={(event) => {
            add(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
      </div>
      {entries.length ? (
        <>
          <ul className="space-y-2" aria-label={text.uploading}>
            {entries.map((entry) => (
              <UploadRow key={entry.key} entry={entry} {...props} onFinished={() => markFinished(entry.key)} />
            ))}
          </ul>
          {finished.size ? (
            <button
              type="button"
              className="text-sm font-semibold text-[#0f5e63] underline"
              onClick={() => {
                setEntries((current) => current.filter((e) => !finished.has(e.key)));
                setFinished(new Set());
              }}
            >
              {text.clearFinished}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

type RowState = { phase: "uploading"; loaded: number; total: number } | { phase: "done" } | { phase: "error"; message: string };

/** One file's upload into the folder shown: starts once when shown; a success reloads the list (the server audits the upload itself). */
function UploadRow(props: { entry: Entry; appName: string; folder: string; maxBytes: number; language: "de" | "en"; text: UploadTexts; onFinished: () => void }) {
  const { entry, text } = props;
  const [state, setState] = useState<RowState>({ phase: "uploading", loaded: 0, total: entry.file.size });
  const revalidator = useRevalidator();
  const started = useRef(false);
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const finished = useRef(props.onFinished);
  finished.current = props.onFinished;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fail = (message: string) => {
      log.error(`upload of ${entry.file.name} failed:`, message);
      setState({ phase: "error", message });
      finished.current();
    };
    if (entry.file.size > props.maxBytes) {
      fail(text.tooLarge(formatBytes(props.maxBytes, props.language)));
      return;
    }
    const upload = sendUpload({
      url: uploadUrl(props.appName),
      file: entry.file,
      parentId: props.folder,
      onProgress: (loaded, total) => setState({ phase: "uploading", loaded, total }),
    });
    void upload.answer.then(({ status, body }) => {
      if (status !== 201) return fail(storeMessage(uploadErrorMessage(status, body, text.uploadFailed), props.language));
      setState({ phase: "done" });
      finished.current();
      void revalidate.current();
    });
    // The upload keeps going when the row re-renders; it is not tied to this effect's lifetime.
  }, [entry, props.appName, props.folder, props.maxBytes, props.language, text]);

  const name = entry.file.name;
  return (
    <li className="rounded border border-slate-200 p-2" data-upload={name} data-upload-state={state.phase}>
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="break-all font-semibold">{name}</span>
        <span className="text-slate-700">{formatBytes(entry.file.size, props.language)}</span>
      </div>
      {state.phase === "error" ? (
        <p role="alert" className="mt-1 text-sm text-red-800" data-upload-error>
          {state.message}
        </p>
      ) : (
        <div className="mt-1 flex items-center gap-2">
          <progress
            className="h-2 w-full accent-[#0f5e63]"
            aria-label={text.progressOf(name)}
            max={100}
            value={state.phase === "done" ? 100 : state.total ? Math.round((state.loaded / state.total) * 100) : 0}
          />
          <span className="shrink-0 text-sm" role={state.phase === "done" ? "status" : undefined}>
            {state.phase === "done" ? text.uploadDone : text.uploading}
          </span>
        </div>
      )}
    </li>
  );
}
