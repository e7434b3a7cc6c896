// Writes the diagram of src/sim's folders and their imports into docs/architecture.md, between
// the markers, from dependency-cruiser's view of the code (so the diagram cannot drift).
// `node scripts/deps-graph.mjs` writes it (npm run deps:graph); `--check` fails when the
// committed diagram is not the one the code gives (npm run deps, in npm test).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = `${root}docs/architecture.md`;
const START = '<!-- deps-graph:start (npm run deps:graph writes this) -->';
const END = '<!-- deps-graph:end -->';

const mermaid = execFileSync(
  `${root}node_modules/.bin/depcruise`,
  [
    'src/sim',
    '--config',
    '.dependency-cruiser.cjs',
    '--include-only',
    '^src/sim/[^/]+/',
    '--exclude',
    '(\\.test\\.tsx?$|^src/sim/testing/)',
    '--collapse',
    '^src/sim/[^/]+',
    '--output-type',
    'mermaid',
  ],
  { cwd: root, encoding: 'utf8' },
).trim();

const text = readFileSync(doc, 'utf8');
const a = text.indexOf(START);
const b = text.indexOf(END);
if (a < 0 || b < a) {
  console.error(`docs/architecture.md has no diagram markers (${START} … ${END}).`);
  process.exit(1);
}
const next = `${text.slice(0, a + START.length)}\n\n\`\`\`mermaid\n${mermaid}\n\`\`\`\n\n${text.slice(b)}`;
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error(
      'The import diagram in docs/architecture.md is not current: run `npm run deps:graph` and commit it.',
    );
    process.exit(1);
  }
  console.log('The import diagram in docs/architecture.md is current.');
} else {
  writeFileSync(doc, next);
  console.log('Wrote the import diagram into docs/architecture.md.');
}
