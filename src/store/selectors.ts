// Pure functions from what the worker sent to what the panels show.

/** Virtual time as seconds with one decimal, e.g. "12.3 s". */
export function formatSimTime(timeMs: number): string {
  return `${(Math.floor(timeMs / 100) / 10).toFixed(1)} s`;
}
