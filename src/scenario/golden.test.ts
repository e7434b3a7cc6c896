// Behaviour shows as a diff: every golden run must match its file in golden/, and the files must be
// the ones recorded for this ENGINE_VERSION. Regenerate with `npm run golden` (see golden.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION, type Scenario } from '../sim';
import { goldenCases, goldenDigest, goldenText, runGolden } from './golden';

const ROOT = join(__dirname, '..', '..');
const DIR = join(ROOT, 'golden');
const EXAMPLES = join(ROOT, 'examples');
const cases = goldenCases(
  readdirSync(EXAMPLES)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({
      name: file.replace(/\.json$/, ''),
      scenario: JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Scenario,
    })),
);

describe('golden runs (regenerate with `npm run golden` and bump ENGINE_VERSION)', () => {
  for (const c of cases) {
    it(`${c.name} matches golden/${c.name}.json`, { timeout: 60_000 }, () => {
      const file = join(DIR, `${c.name}.json`);
      expect(existsSync(file), `golden/${c.name}.json is missing: run npm run golden`).toBe(true);
      const want = readFileSync(file, 'utf8');
      const got = goldenText(runGolden(c));
      // Compare line by line first, so a failure names the first event or hash that changed.
      const wantLines = want.split('\n');
      const gotLines = got.split('\n');
      const first = wantLines.findIndex((line, i) => line !== gotLines[i]);
      expect(
        first === -1 && wantLines.length === gotLines.length
          ? null
          : { line: first + 1, want: wantLines[first], got: gotLines[first] },
      ).toBeNull();
    });
  }

  it('the golden files are the ones recorded for this ENGINE_VERSION', () => {
    const versions = JSON.parse(readFileSync(join(DIR, 'versions.json'), 'utf8')) as Record<string, string>;
    const texts = new Map(cases.map((c) => [c.name, readFileSync(join(DIR, `${c.name}.json`), 'utf8')]));
    expect(versions[ENGINE_VERSION], `golden/versions.json has no entry for ${ENGINE_VERSION}`).toBe(
      goldenDigest(texts),
    );
    // One behaviour a version, one version a behaviour: a changed digest needs a new version.
    const digests = Object.values(versions);
    expect(new Set(digests).size).toBe(digests.length);
  });
});
