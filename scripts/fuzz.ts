// npm run fuzz: throws thousands of generated inputs at the simulator, as a careless or hostile
// user would, and lists every outcome that is not one of: accepted and runs, or refused with a
// ScenarioError (or a refusal) whose issues have paths and short messages.
//   npm run fuzz -- [--runs N] [--kind files,commands,links] [--seed S] [--case K]
// Each case runs in a worker thread under a watchdog, so a case that hangs the engine is reported
// (with its seed) instead of stopping the run. The seed of each case is `seed + index`; `--case`
// reruns one. Exit code 1 when any defect was found. The cases and checks are in fuzzCases.ts.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { CASE_TIMEOUT_MS, KINDS, runCase, slowAfterMs, type Defect, type Kind } from './fuzzCases';

// ---- the watchdog --------------------------------------------------------------------------------

if (!isMainThread) {
  const { kind, seed, from, to } = workerData as { kind: Kind; seed: number; from: number; to: number };
  for (let index = from; index < to; index++) {
    const slowAfter = slowAfterMs(kind, seed + index);
    parentPort!.postMessage({ type: 'start', index });
    const started = Date.now();
    let what: string | null;
    try {
      what = runCase(kind, seed + index);
    } catch (error) {
      what = `the case threw ${String(error).slice(0, 160)}`;
    }
    const ms = Date.now() - started;
    if (!what && ms > slowAfter)
      what = `slow: ${ms} ms of wall time (its scene allows ${Math.round(slowAfter)})`;
    parentPort!.postMessage({ type: 'done', index, what, ms });
  }
} else {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      kind: { type: 'string' },
      seed: { type: 'string' },
      case: { type: 'string' },
    },
  });
  const runs = Number(values.runs ?? 1000);
  const seed = Number(values.seed ?? 20261201);
  const kinds = (values.kind?.split(',') ?? KINDS) as Kind[];
  const defects: Defect[] = [];
  for (const kind of kinds) {
    const from = values.case !== undefined ? Number(values.case) : 0;
    const to = values.case !== undefined ? from + 1 : runs;
    const started = Date.now();
    let next = from;
    while (next < to) {
      next = await new Promise<number>((resolve) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: { kind, seed, from: next, to } });
        let current = next;
        let timer = setTimeout(hang, CASE_TIMEOUT_MS);
        function hang() {
          defects.push({
            kind,
            index: current,
            seed: seed + current,
            what: `hang: no answer in ${CASE_TIMEOUT_MS} ms`,
          });
          void worker.terminate();
          resolve(current + 1);
        }
        worker.on('message', (m: { type: 'start' | 'done'; index: number; what?: string | null }) => {
          if (m.type === 'start') {
            current = m.index;
            clearTimeout(timer);
            timer = setTimeout(hang, CASE_TIMEOUT_MS);
            return;
          }
          if (m.what) defects.push({ kind, index: m.index, seed: seed + m.index, what: m.what });
          if (m.index === to - 1) {
            clearTimeout(timer);
            void worker.terminate();
            resolve(to);
          }
        });
        worker.on('error', (error) => {
          clearTimeout(timer);
          defects.push({
            kind,
            index: current,
            seed: seed + current,
            what: `the worker died: ${String(error).slice(0, 160)}`,
          });
          resolve(current + 1);
        });
      });
    }
    const found = defects.filter((d) => d.kind === kind).length;
    process.stdout.write(
      `${kind}: ${to - from} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ${found} defects\n`,
    );
  }
  const byWhat = new Map<string, Defect[]>();
  for (const d of defects) {
    const shape = `${d.kind}: ${d.what.replace(/\d+/g, 'N').slice(0, 140)}`;
    byWhat.set(shape, [...(byWhat.get(shape) ?? []), d]);
  }
  for (const [shape, list] of byWhat)
    process.stdout.write(
      `  ${list.length} × ${shape}\n      first: --kind ${list[0]!.kind} --seed ${seed} --case ${list[0]!.index}: ${list[0]!.what}\n`,
    );
  process.exit(defects.length ? 1 : 0);
}
