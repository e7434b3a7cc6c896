// Reading a session or scenario file off the page's main thread: a small worker of its own
// (fileDecoder.worker.ts) reads the file and decodes it, so a big file cannot block clicks,
// keys or the canvas while it is parsed. Its two messages are below, shared by both sides.
import { sessionFileSizeIssues, sessionFromJson, type DecodeResult } from '../scenario';

/** Page → decoder: a chosen or dropped file (a File is posted by reference, not copied). */
export interface DecodeFileRequest {
  id: number;
  file: File;
}

/** Decoder → page: the session, or every problem of the file with its path. */
export interface DecodeFileReply {
  id: number;
  result: DecodeResult;
}

/** The size first (a file over the bound is never read), then the same checks as a link. */
export async function decodeSessionFile(file: File): Promise<DecodeResult> {
  const tooBig = sessionFileSizeIssues(file.name, file.size);
  if (tooBig.length > 0) return { ok: false, issues: tooBig };
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, issues: [{ path: 'file', message: `${file.name} could not be read: ${reason}` }] };
  }
  return sessionFromJson(text);
}

/**
 * The page's side: one decoder worker, started on the first file and kept for the next ones;
 * each request settles with its own reply. A worker that fails settles what it had in hand.
 */
export function fileDecoderClient(start: () => Worker): (file: File) => Promise<DecodeResult> {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, (result: DecodeResult) => void>();
  const failAll = (message: string) => {
    for (const settle of pending.values()) settle({ ok: false, issues: [{ path: 'file', message }] });
    pending.clear();
    worker?.terminate();
    worker = null;
  };
  return (file) => {
    if (!worker) {
      worker = start();
      worker.onmessage = (event: MessageEvent<DecodeFileReply>) => {
        pending.get(event.data.id)?.(event.data.result);
        pending.delete(event.data.id);
      };
      worker.onerror = (event) =>
        failAll(`the file could not be decoded: ${event.message || 'worker error'}`);
    }
    const id = nextId++;
    const request: DecodeFileRequest = { id, file };
    return new Promise((resolve) => {
      pending.set(id, resolve);
      worker!.postMessage(request);
    });
  };
}
