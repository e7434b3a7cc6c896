// The command-line runner: runs a scenario headless and prints one JSON report.
//   npm run sim -- FILE.json [--until MS]
// A file that cannot be run prints one problem a line, `path: message`, to stderr and exits 1.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { locateJsonError } from '../src/scenario/jsonError';
import { createSimulation, ScenarioError } from '../src/sim';
import type { Scenario } from '../src/sim/types';

const USAGE = 'usage: npm run sim -- FILE.json [--until MS]';
/** How long to run past the scenario's last scripted step (or time 0), so its effects play out. */
const SETTLE_MS = 30_000;

function fail(lines: string[], exitCode: number): never {
  for (const line of lines) process.stderr.write(`${line}\n`);
  process.exit(exitCode);
}

function parseCommandLine(): { file: string; untilMs?: number } {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      options: { until: { type: 'string' } },
      allowPositionals: true,
    }));
  } catch (error) {
    fail([(error as Error).message, USAGE], 2);
  }
  if (positionals.length !== 1) fail([USAGE], 2);
  if (values.until === undefined) return { file: positionals[0] };
  const untilMs = Number(values.until);
  if (!Number.isSafeInteger(untilMs) || untilMs < 0) {
    fail([`--until: expected whole milliseconds (0 or more), got "${values.until}"`], 2);
  }
  return { file: positionals[0], untilMs };
}

/** JSON.parse, with a parse error located by line and column. */
function readScenario(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail([`${file}: cannot read: ${(error as Error).message}`], 1);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = locateJsonError(text);
    const where = at ? `${file}:${at.line}:${at.column}` : file;
    // V8 quotes the text around the error, newlines included: keep the problem on one line.
    fail([`${where}: invalid JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`], 1);
  }
}

function defaultUntilMs(scenario: Scenario): number {
  const steps = scenario.script ?? [];
  return (steps.length ? Math.max(...steps.map((step) => step.atMs)) : 0) + SETTLE_MS;
}

const { file, untilMs } = parseCommandLine();
const scenario = readScenario(file) as Scenario;
let sim;
try {
  sim = createSimulation(scenario);
} catch (error) {
  if (!(error instanceof ScenarioError)) throw error;
  fail(
    error.issues.map((issue) => `${issue.path}: ${issue.message}`),
    1,
  );
}
sim.advance((untilMs ?? defaultUntilMs(scenario)) - sim.nowMs);
const report = {
  snapshot: sim.snapshot(),
  events: sim.events(),
  ledger: sim.ledger(),
  lostAcknowledged: sim.lostAcknowledged(),
  stateHash: sim.stateHash(),
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
