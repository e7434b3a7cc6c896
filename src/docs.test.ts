// The repository stands on its own (docs/style.md): its docs, comments and tests cite what a reader
// can open (a file here, a KIP, a Kafka source file), never a tracker issue by number, which a reader
// of the repository cannot see.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');
const ROOTS = ['README.md', 'docs', 'src', 'scripts', 'e2e'];
const TEXT = /\.(md|ts|tsx|mjs|cjs|css|sh)$/;

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return TEXT.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => files(join(path, name)));
}

describe('the repository stands on its own', () => {
  it('names no tracker issue by number (“issue 17”), in docs, comments or tests', () => {
    const TRACKER = /\bissues? #?\d+\b/i;
    const found: string[] = [];
    for (const file of ROOTS.flatMap((r) => files(join(ROOT, r)))) {
      if (file === __filename) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (TRACKER.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim().slice(0, 80)}`);
        });
    }
    expect(found).toEqual([]);
  });
});
