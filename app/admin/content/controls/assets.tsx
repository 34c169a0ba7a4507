import { useEffect, useId, useRef, useState } from "react";
import { thumbnailUrl } from "~/admin/assets/query";
import type { CustomControlProps } from "~/forms/react";
import { useControlsData } from "./context";
import { valueText, withAdvanced } from "./json";
import { usePagedSearch } from "./paged-search";
import { idsOf } from "./reference";
import { controlInput, controlWords, smallButton } from "./words";
import { http } from "~/lib/http";

/** One file of the library grid, as GET /api/editor/assets answers. */
interface LibraryFile {
  id: string;
  fileName: string;
  url: string;
  mimeType: string;
  isImage: boolean;
}

const DEBOUNCE_MS = 250;

/**
 * Files from the asset library: the chosen ones as thumbnails with their names (remove; reorder when
 * more than one is allowed), "choose from the library" (a searchable, paged grid of every folder) and
 * "upload" (the new file is chosen). With one file allowed, choosing replaces it.
 */
export const AssetsControl = withAdvanced(AssetsPicker, true);

function AssetsPicker({ id, value, onChange, props, language, describedBy }: CustomControlProps) {
  const data = useControlsData();
  const w = controlWords[language];
  const maxItems = typeof props.maxItems === "number" && props.maxItems > 0 ? props.maxItems : Infinity;
  const imagesOnly = props.images === true;
  const ids = idsOf(value);
  const [known, setKnown] = useState<Record<string, { fileName: string; url: string; mimeType: string }>>({});
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
  const [uploading, setUploading] = useState(false);
  const uploadId = useId();
  const fileOf = (fileId: string) => known[fileId] ?? data.assets[fileId];

  const set = (next: string[]) => onChange(valueText(next));
  const close = () => {
    setOpen(false);
    // Focus back where the library was opened, not lost with the grid.
    requestAnimationFrame(() => document.getElementById(id)?.focus());
  };
  const choose = (file: LibraryFile) => {
    setKnown((k) => ({ ...k, [file.id]: { fileName: file.fileName, url: file.url, mimeType: file.mimeType } }));
    if (maxItems === 1) {
      set([file.id]);
      if (open) close();
      return;
    }
    if (!ids.includes(file.id) && ids.length < maxItems) set([...ids, file.id]);
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...ids];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    set(next);
  };

  const upload = async (file: File) => {
    setUploading(true);
    setStatus({ text: w.fileUploading, failed: false });
    try {
      const form = new FormData();
      form.append("file", file, file.name);
      const res = await http(`/api/squidex/api/apps/${encodeURIComponent(data.appName)}/assets`, { method: "POST", body: form });
      const text = await res.text();
      if (res.status !== 200 && res.status !== 201) {
        // Our own words: the API's message is English and technical.
        setStatus({ text: w.fileUploadFailed(w.fileUploadStatus(res.status)), failed: true });
        return;
      }
      const a = JSON.parse(text) as { id: string; slug: string; fileName: string; mimeType: string };
      choose({ id: a.id, fileName: a.fileName, url: thumbnailUrl(a), mimeType: a.mimeType, isImage: a.mimeType.startsWith("image/") });
      setStatus({ text: w.fileUploaded(a.fileName), failed: false });
    } catch {
      setStatus({ text: w.fileUploadFailed(w.fileUploadStatus(0)), failed: true });
    } finally {
      setUploading(false);
    }
  };

  const full = maxItems !== 1 && ids.length >= maxItems;
  return (
    <div className="space-y-2" data-assets-control>
      {ids.length ? (
        <ul className="flex flex-wrap gap-3" aria-label={w.pickChosenList}>
          {ids.map((fileId, i) => {
            const f = fileOf(fileId);
            const name = f?.fileName ?? w.fileUnknown;
            return (
              <li key={fileId} className="w-40 space-y-1 rounded border border-slate-300 bg-white p-2" data-chosen-file={fileId}>
                {f && f.mimeType.startsWith("image/") ? (
                  <img src={f.url} alt="" width={144} height={96} className="h-24 w-36 rounded object-cover" />
                ) : (
                  <span className="flex h-24 w-36 items-center justify-center rounded bg-slate-100 text-sm text-slate-700" aria-hidden="true">
                    {f ? (f.mimeType.split("/")[1] ?? "").toUpperCase() : "?"}
                  </span>
                )}
                <span className="block truncate text-sm font-medium" title={name}>
                  {name}
                </span>
                <span className="flex flex-wrap gap-1">
                  {maxItems > 1 && i > 0 ? (
                    <button type="button" className={smallButton} onClick={() => move(i, -1)} aria-label={`${name}: ${w.moveUp}`}>
                      ↑
                    </button>
                  ) : null}
                  {maxItems > 1 && i < ids.length - 1 ? (
                    <button type="button" className={smallButton} onClick={() => move(i, 1)} aria-label={`${name}: ${w.moveDown}`}>
                      ↓
                    </button>
                  ) : null}
                  <button type="button" className={smallButton} onClick={() => set(ids.filter((x) => x !== fileId))}>
                    {w.pickRemove(name)}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-700">{w.fileNone}</p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button id={id} type="button" className={smallButton} aria-expanded={open} disabled={full} onClick={() => setOpen((o) => !o)} aria-describedby={describedBy} data-open-library>
          {w.fileLibrary}
        </button>
        <label
          htmlFor={uploadId}
          className={`${smallButton} cursor-pointer focus-within:outline-2 focus-within:outline-[#0f5e63] ${full || uploading ? "pointer-events-none opacity-50" : ""}`}
        >
          {w.fileUpload}
          <input
            id={uploadId}
            type="file"
            className="sr-only"
            disabled={full || uploading}
            accept={imagesOnly ? "image/*" : undefined}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void upload(file);
            }}
            data-upload
          />
        </label>
        {full ? <span className="text-sm text-slate-700">{w.pickMax(maxItems)}</span> : null}
      </div>
      <p role={status?.failed ? "alert" : "status"} className={`text-sm ${status?.failed ? "text-red-800" : "text-slate-700"}`} data-upload-status>
        {status?.text ?? ""}
      </p>
      {open ? <Library language={language} imagesOnly={imagesOnly} chosen={ids} onChoose={choose} onClose={close} /> : null}
    </div>
  );
}

/** The library as a searchable, paged grid. */
function Library({ language, imagesOnly, chosen, onChoose, onClose }: { language: CustomControlProps["language"]; imagesOnly: boolean; chosen: string[]; onChoose(file: LibraryFile): void; onClose(): void }) {
  const w = controlWords[language];
  const [q, setQ] = useState("");
  const { found, busy, failed, load: fetchPage } = usePagedSearch<LibraryFile>(w.pickFailed);
  const searchId = useId();
  const searchBox = useRef<HTMLInputElement>(null);

  const load = (text: string, skip: number) => fetchPage(`/api/editor/assets?${new URLSearchParams({ q: text, skip: String(skip), ...(imagesOnly ? { images: "1" } : {}) })}`, skip);


  useEffect(() => {
    searchBox.current?.focus();
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => void load(q.trim(), 0), q ? DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);

  const items = found?.items ?? [];
  return (
    <div
      className="space-y-2 rounded border border-slate-400 bg-slate-50 p-3"
      data-library
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <div className="grow">
          <label htmlFor={searchId} className="block text-sm font-medium">
            {w.fileSearch}
          </label>
          <input
            ref={searchBox}
            id={searchId}
            type="search"
            className={controlInput}
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") e.preventDefault();
            }}
          />
        </div>
        <button type="button" className={smallButton} onClick={onClose}>
          {w.fileClose}
        </button>
      </div>
      <p role="status" aria-live="polite" className="text-sm text-slate-800">
        {busy ? w.pickSearching : found ? w.fileCount(found.total) : ""}
      </p>
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          {failed}
        </p>
      ) : null}
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {items.map((f) => {
          const isChosen = chosen.includes(f.id);
          return (
            <li key={f.id}>
              <button
                type="button"
                className={`block w-full space-y-1 rounded border bg-white p-1 text-left hover:bg-slate-100 focus:outline-2 focus:outline-[#0f5e63] ${isChosen ? "border-[#0f5e63] ring-2 ring-[#0f5e63]" : "border-slate-300"}`}
                onClick={() => onChoose(f)}
                aria-pressed={isChosen}
                aria-label={w.fileChoose(f.fileName)}
                data-library-file={f.id}
              >
                {f.isImage ? (
                  <img src={f.url} alt="" width={160} height={96} loading="lazy" className="h-24 w-full rounded object-cover" />
                ) : (
                  <span className="flex h-24 w-full items-center justify-center rounded bg-slate-100 text-sm" aria-hidden="true">
                    {(f.mimeType.split("/")[1] ?? "").toUpperCase()}
                  </span>
                )}
                <span className="block truncate text-xs">{f.fileName}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {found && items.length < found.total ? (
        <button type="button" className={smallButton} disabled={busy} onClick={() => void load(q.trim(), items.length)}>
          {w.pickMore}
        </button>
      ) : null}
    </div>
  );
}
