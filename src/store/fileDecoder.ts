// Where the page decodes an imported file: src/app connects a decoder that runs in a worker of its
// own (src/worker/fileDecoder.ts), so that reading and parsing a file never blocks the page.
import type { ScenarioIssue } from '../sim/types';
import type { SessionData } from './timeline';

export type DecodedFile = { ok: true; session: SessionData } | { ok: false; issues: ScenarioIssue[] };
export type FileDecoder = (file: File) => Promise<DecodedFile>;

let decoder: FileDecoder | null = null;

export function connectFileDecoder(decode: FileDecoder): void {
  decoder = decode;
}

/** The decoded session of a file, or its problems with their paths. */
export function decodeFile(file: File): Promise<DecodedFile> {
  if (!decoder) throw new Error('No file decoder is connected (src/app connects one at start).');
  return decoder(file);
}
