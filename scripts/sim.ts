// The command-line runner: runs a scenario headless and prints one JSON report.
//   npm run sim -- FILE.json [--until MS] [--summary] [--only FIELD,…] [--events TYPE,…] [--indent]
//   npm run sim -- --from-describe DESCRIBE.txt [--write-scenario OUT.json] [the options above]
// A file that cannot be run prints one problem a line, `path: message`, to stderr and exits 1.
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { importLayout } from '../src/scenario/importLayout';
import { parseArgs } from 'node:util';
import { locateJsonError } from '../src/scenario/jsonError';
import {
  DEFAULT_FIELDS,
  defaultUntil,
  parseFields,
  REPORT_FIELDS,
  reportPieces,
  type ReportField,
} from '../src/scenario/report';
import { createSimulation, ScenarioError } from '../src/sim';
import type { Scenario } from '../src/sim/types';

const USAGE = [
  'usage: npm run sim -- FILE.json [--until MS] [--summary] [--only FIELD,…] [--events TYPE,…] [--indent]',
  '       npm run sim -- --from-describe DESCRIBE.txt [--write-scenario OUT.json] [the same options]',
  '  --from-describe   build the scenario from pasted kafka-topics.sh --describe output (docs/import.md);',
  '                    its report goes to stderr, one line each',
  '  --write-scenario  also write that scenario to OUT.json',
  `  --only     the report's fields, of ${REPORT_FIELDS.join(', ')} (default: all but summary)`,
  '  --summary  the same as --only summary: counts of events, records and partitions, and the state hash',
  '  --events   only the events of these types (e.g. LeaderElected,IsrShrink)',
  '  --indent   indent the JSON (it is compact, one line, by default)',
].join('\n');

function fail(lines: string[], exitCode: number): never {
  for (const line of lines) process.stderr.write(`${line}\n`);
  process.exit(exitCode);
}

interface CommandLine {
  file: string;
  fromDescribe: boolean;
  writeScenario?: string;
  untilMs?: number;
  fields: readonly ReportField[];
  eventTypes: ReadonlySet<string> | null;
  indent: boolean;
}

function parseCommandLine(): CommandLine {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      options: {
        until: { type: 'string' },
        only: { type: 'string' },
        summary: { type: 'boolean' },
        events: { type: 'string' },
        indent: { type: 'boolean' },
        'from-describe': { type: 'string' },
        'write-scenario': { type: 'string' },
      },
      allowPositionals: true,
    }));
  } catch (error) {
    fail([(error as Error).message, USAGE], 2);
  }
  const fromDescribe = values['from-describe'];
  const file = fromDescribe ?? positionals[0];
  if (positionals.length !== (fromDescribe === undefined ? 1 : 0) || file === undefined) fail([USAGE], 2);
  if (values['write-scenario'] !== undefined && fromDescribe === undefined)
    fail(['--write-scenario needs --from-describe', USAGE], 2);
  let fields: readonly ReportField[] = DEFAULT_FIELDS;
  if (values.summary && values.only !== undefined) fail(['--summary and --only: give one of them', USAGE], 2);
  if (values.summary) fields = ['summary'];
  if (values.only !== undefined) {
    const parsed = parseFields(values.only);
    if ('error' in parsed) fail([parsed.error], 2);
    fields = parsed.fields;
  }
  const eventTypes =
    values.events === undefined
      ? null
      : new Set(
          values.events
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        );
  const line: CommandLine = {
    file,
    fromDescribe: fromDescribe !== undefined,
    ...(values['write-scenario'] !== undefined ? { writeScenario: values['write-scenario'] } : {}),
    fields,
    eventTypes,
    indent: values.indent ?? false,
  };
  if (values.until === undefined) return line;
  const untilMs = Number(values.until);
  if (!Number.isSafeInteger(untilMs) || untilMs < 0) {
    fail([`--until: expected whole milliseconds (0 or more), got "${values.until}"`], 2);
  }
  return { ...line, untilMs };
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

/** The scenario importLayout builds from a describe output; its report goes to stderr. */
function importScenario(file: string, out: string | undefined): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail([`${file}: cannot read: ${(error as Error).message}`], 1);
  }
  const result = importLayout(text);
  for (const r of result.report)
    process.stderr.write(`${r.line > 0 ? `${file}:${r.line}: ` : `${file}: `}${r.status}: ${r.message}\n`);
  if (!result.scenario) fail([`${file}: not imported (the problems are above)`], 1);
  if (out !== undefined) writeFileSync(out, `${JSON.stringify(result.scenario, null, 2)}\n`);
  return result.scenario;
}

const line = parseCommandLine();
const scenario = line.fromDescribe
  ? importScenario(line.file, line.writeScenario)
  : (readScenario(line.file) as Scenario);
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
let untilMs = line.untilMs;
if (untilMs === undefined) {
  const until = defaultUntil(scenario);
  if ('error' in until) fail([`${line.file}: ${until.error}`], 2);
  untilMs = until.untilMs;
}
sim.advance(untilMs - sim.nowMs);
// Written in pieces of about 64 KB, waiting for the pipe to drain, so a long run's report is
// never held whole in memory (nor as one giant string).
let buffer = '';
for (const piece of reportPieces(sim, line)) {
  buffer += piece;
  if (buffer.length < 1 << 16) continue;
  if (!process.stdout.write(buffer)) await once(process.stdout, 'drain');
  buffer = '';
}
process.stdout.write(buffer);
