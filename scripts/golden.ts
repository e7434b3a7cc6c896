// Regenerates golden/: every example, preset and lesson scene, run headless (src/scenario/golden.ts).
//   npm run golden
// The digest of the new files is recorded under the current ENGINE_VERSION in golden/versions.json.
// If the files changed and that version already names other files, nothing is written: a change in
// behaviour needs a new ENGINE_VERSION (src/sim/simulation.ts) first.
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE_VERSION, type Scenario } from '../src/sim';
import { goldenCases, goldenDigest, goldenText, runGolden } from '../src/scenario/golden';

const ROOT = join(import.meta.dirname, '..');
const DIR = join(ROOT, 'golden');
const VERSIONS = join(DIR, 'versions.json');

const texts = new Map<string, string>();
const EXAMPLES = join(ROOT, 'examples');
const examples = readdirSync(EXAMPLES)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({
    name: file.replace(/\.json$/, ''),
    scenario: JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Scenario,
  }));
for (const c of goldenCases(examples)) {
  const started = Date.now();
  texts.set(c.name, goldenText(runGolden(c)));
  process.stdout.write(`${c.name}: ${c.untilMs} ms simulated in ${Date.now() - started} ms\n`);
}
const digest = goldenDigest(texts);
const versions: Record<string, string> = existsSync(VERSIONS)
  ? (JSON.parse(readFileSync(VERSIONS, 'utf8')) as Record<string, string>)
  : {};
const recorded = versions[ENGINE_VERSION];
if (recorded !== undefined && recorded !== digest) {
  process.stderr.write(
    `golden: the engine's behaviour changed, but ENGINE_VERSION is still ${ENGINE_VERSION}, ` +
      `which names other golden files. Bump ENGINE_VERSION in src/sim/simulation.ts and run again.\n`,
  );
  process.exit(1);
}
const owner = Object.entries(versions).find(([v, d]) => d === digest && v !== ENGINE_VERSION);
if (owner) {
  process.stderr.write(`golden: these files are already recorded for ${owner[0]}; restore that version.\n`);
  process.exit(1);
}
mkdirSync(DIR, { recursive: true });
// The golden runs only: golden/import (the layout importer's cases) is not this script's.
for (const file of readdirSync(DIR))
  if (file.endsWith('.json') && file !== 'versions.json') rmSync(join(DIR, file));
for (const [name, text] of texts) writeFileSync(join(DIR, `${name}.json`), text);
versions[ENGINE_VERSION] = digest;
writeFileSync(VERSIONS, `${JSON.stringify(versions, null, 2)}\n`);
process.stdout.write(
  `golden: ${texts.size} files written for ENGINE_VERSION ${ENGINE_VERSION} (${digest})\n`,
);
