// How big a session or scenario file may be. The size is checked before a byte is read, so a
// huge file is refused at once instead of blocking while it is read and parsed.
import type { ScenarioIssue } from '../sim/types';

/**
 * Bytes a session or scenario file may have: 5 MiB. A session of the default cluster at the action
 * limit (5,000 recorded produce actions of short records, exported with indentation) is about
 * 1.2 MB; only thousands of actions with long record values (up to LIMITS.maxRecordChars) go past it.
 */
export const MAX_SESSION_FILE_BYTES = 5 * 1024 * 1024;

const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The problem of a file too big to open, naming the file and the bound; [] when it may be read. */
export function sessionFileSizeIssues(name: string, sizeBytes: number): ScenarioIssue[] {
  if (sizeBytes <= MAX_SESSION_FILE_BYTES) return [];
  return [
    {
      path: 'file',
      message: `${name} is ${mb(sizeBytes)}; a session or scenario file may have at most ${mb(MAX_SESSION_FILE_BYTES)} (5 MiB), so it was not read`,
    },
  ];
}
