// Every config at its legal extremes: refused with a message, or a simulated minute that runs in
// bounded wall time. A legal request.timeout.ms=0 or auto.commit.interval.ms=0 once made
// advance() never return; the cases run in a worker thread so that a hang is seen and named.
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { boundCases, BOUND_RUN_MS, type BoundOutcome } from '../../scripts/configBounds';

/** Wall time one case may take (a minute of the three-brokers cluster takes well under a second). */
const CASE_WALL_MS = 15_000;

type Result = BoundOutcome | { outcome: 'threw' | 'hang'; message: string };

/**
 * scripts/configBounds.ts bundled for a worker thread (as `npm run fuzz` bundles its own), into a
 * folder of its own: node_modules may be shared by several checkouts.
 */
function bundle(): string {
  const outfile = join(mkdtempSync(join(tmpdir(), 'kcl-config-bounds-')), 'configBounds.mjs');
  buildSync({
    entryPoints: [fileURLToPath(new URL('../../scripts/configBounds.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/** Runs every case in a worker, restarting it after a case that hangs. */
async function runAll(count: number): Promise<{ result: Result; wallMs: number }[]> {
  const file = bundle();
  const results: { result: Result; wallMs: number }[] = [];
  let from = 0;
  while (from < count) {
    from = await new Promise<number>((resolve, reject) => {
      const worker = new Worker(file, { workerData: { boundsFrom: from } });
      let current = from;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hang = () => {
        results[current] = {
          result: { outcome: 'hang', message: `no answer in ${CASE_WALL_MS} ms` },
          wallMs: CASE_WALL_MS,
        };
        void worker.terminate();
        resolve(current + 1);
      };
      worker.on(
        'message',
        (m: { type: 'start' | 'done'; index: number; result?: Result; wallMs?: number }) => {
          clearTimeout(timer);
          current = m.index;
          if (m.type === 'start') timer = setTimeout(hang, CASE_WALL_MS);
          else {
            results[m.index] = { result: m.result!, wallMs: m.wallMs! };
            if (m.index === count - 1) {
              void worker.terminate();
              resolve(count);
            }
          }
        },
      );
      worker.on('error', reject);
    });
  }
  rmSync(dirname(file), { recursive: true, force: true });
  return results;
}

describe('every config at its lowest and highest legal value', () => {
  const cases = boundCases();

  it(`is refused with a message or runs ${BOUND_RUN_MS / 1000} s of virtual time in bounded wall time (${cases.length} cases)`, async () => {
    const results = await runAll(cases.length);
    const problems: string[] = [];
    let ran = 0;
    cases.forEach((c, i) => {
      const { result, wallMs } = results[i]!;
      const what = `${c.kind} ${c.name}=${JSON.stringify(c.value)}`;
      if (result.outcome === 'hang' || result.outcome === 'threw')
        problems.push(`${what}: ${result.outcome} ${result.message}`);
      else if (result.outcome === 'refused' && (result.message.length === 0 || result.message.length > 400))
        problems.push(`${what}: refused with a ${result.message.length}-character message`);
      else if (result.outcome === 'ran') {
        ran++;
        if (result.nowMs !== BOUND_RUN_MS) problems.push(`${what}: stopped at ${result.nowMs} ms`);
      }
      if (wallMs > 10_000) problems.push(`${what}: ${wallMs} ms of wall time`);
    });
    expect(problems).toEqual([]);
    // Most extremes are legal: the cluster runs with them.
    expect(ran).toBeGreaterThan(cases.length / 2);
  }, 600_000);

  it('includes the two that stopped time', () => {
    expect(cases).toContainEqual({ kind: 'producer', name: 'request.timeout.ms', value: 0 });
    expect(cases).toContainEqual({ kind: 'consumer', name: 'auto.commit.interval.ms', value: 0 });
  });
});
