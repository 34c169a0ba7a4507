/**
 * One file sent to the Squidex asset endpoint with XMLHttpRequest, because fetch reports no upload
 * progress. Browser only. The promise always resolves: status 0 means the request never got an answer.
 */
export interface UploadAnswer {
  status: number;
  body: string;
}

/** The Squidex endpoint for uploads into `appName` (the admin session cookie authorises it). */
export const uploadUrl = (appName: string) => `/api/squidex/api/apps/${encodeURIComponent(appName)}/assets`;

export function sendUpload(options: {
  url: string;
  file: File;
  parentId: string;
  onProgress: (loaded: number, total: number) => void;
}): { answer: Promise<UploadAnswer>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const answer = new Promise<UploadAnswer>((resolve) => {
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded, event.total);
    });
    xhr.addEventListener("load", () => resolve({ status: xhr.status, body: typeof xhr.response === "string" ? xhr.response : "" }));
    xhr.addEventListener("error", () => resolve({ status: 0, body: "" }));
    xhr.addEventListener("abort", () => resolve({ status: 0, body: "" }));
    xhr.addEventListener("timeout", () => resolve({ status: 0, body: "" }));
  });
  const form = new FormData();
  form.append("ParentId", options.parentId);
  form.append("file", options.file, options.file.name);
  xhr.open("POST", `${options.url}?ParentId=${encodeURIComponent(options.parentId)}`);
  xhr.responseType = "text";
  xhr.setRequestHeader("Accept", "application/json");
  xhr.send(form);
  return { answer, abort: () => xhr.abort() };
}
