// Lint enforces the layer table of ARCHITECTURE.md, so the boundaries hold without anyone
// remembering them. Each folder of src/ is one layer, and a relative import names the layer it
// reaches right after its run of '../'.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const LAYERS = ['sim', 'scenario', 'worker', 'store', 'canvas', 'panels', 'lessons', 'app'];
const UI_PACKAGES = ['react', 'react-dom', 'zustand', '@xyflow/react', 'framer-motion'];
// Tests are not shipped: they may use Node and any of the project's dev dependencies.
const TEST_PACKAGES = [
  'node:',
  ...Object.keys(
    JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).devDependencies,
  ),
];
const TEST_FILES = ['src/**/*.test.ts'];

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Patterns for no-restricted-imports: a layer may import only `layers` and only `packages`. */
function layerPatterns(layer, { layers = [], packages = [], extra = [] }) {
  const allowedLayers = new Set([layer, ...layers]);
  const banned = LAYERS.filter((name) => !allowedLayers.has(name));
  const allowedPackages = packages.map((name) => (name.endsWith(':') ? name : `${escapeRegex(name)}(/|$)`));
  return [
    {
      regex: `^(\\.\\./)+(${banned.join('|')})(/|$)`,
      message: `src/${layer} may import only ${[layer, ...layers].map((l) => `src/${l}`).join(', ')} (ARCHITECTURE.md, layers).`,
    },
    {
      regex: `^(?!\\.${allowedPackages.map((p) => `|${p}`).join('')})`,
      message: packages.length
        ? `src/${layer} may import only these packages: ${packages.join(', ')} (ARCHITECTURE.md, layers).`
        : `src/${layer} imports no packages (ARCHITECTURE.md, layers).`,
    },
    ...extra,
  ];
}

/** One config per layer: its own files, and its tests with the test packages besides. */
function layer(name, allowed) {
  return [
    {
      files: [`src/${name}/**/*.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns: layerPatterns(name, allowed) }] },
    },
    {
      files: [`src/${name}/**/*.test.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: layerPatterns(name, {
              ...allowed,
              // Tests may drive the engine with the built-in scenarios.
              layers: [...(allowed.layers ?? []), 'scenario'],
              packages: [...(allowed.packages ?? []), ...TEST_PACKAGES],
            }),
          },
        ],
      },
    },
  ];
}

// The engine is deterministic: no wall clock, no timers, no unseeded randomness, no host objects.
const ENGINE_GLOBALS = [
  'window',
  'document',
  'self',
  'globalThis',
  'navigator',
  'Worker',
  'postMessage',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'requestAnimationFrame',
  'performance',
  'Date',
  'crypto',
  'process',
].map((name) => ({
  name,
  message: `src/sim is a pure, deterministic library: no ${name} (ARCHITECTURE.md, layers).`,
}));

const MATH_RANDOM = {
  object: 'Math',
  property: 'random',
  message: 'Use the seeded RNG (src/sim/rng.ts), so that a seed replays a run.',
};
const WALL_CLOCK_PROPERTIES = ['Date', 'performance'].map((object) => ({
  object,
  property: 'now',
  message: 'src/sim reads no wall clock: use the virtual time (nowMs).',
}));

export default defineConfig(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ['scripts/**', 'e2e/**', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },

  layer('sim', {}),
  // fflate: the session codec compresses shared links (docs/sharing.md).
  layer('scenario', { layers: ['sim'], packages: ['fflate'] }),
  layer('worker', { layers: ['sim', 'scenario'] }),
  layer('store', {
    layers: ['worker', 'sim'],
    packages: ['zustand'],
    extra: [
      {
        regex: '^(\\.\\./)+worker(/(?!protocol$)|$)',
        message: 'src/store may import only the worker protocol (src/worker/protocol).',
      },
      {
        regex: '^(\\.\\./)+sim(/|$)',
        allowTypeImports: true,
        message: 'src/store may import only types from src/sim: use `import type`.',
      },
    ],
  }),
  layer('canvas', { layers: ['store', 'scenario'], packages: UI_PACKAGES }),
  layer('panels', { layers: ['store', 'scenario'], packages: UI_PACKAGES }),
  layer('lessons', { layers: ['store', 'scenario'], packages: UI_PACKAGES }),

  {
    files: ['src/sim/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-globals': ['error', ...ENGINE_GLOBALS],
      'no-restricted-properties': ['error', MATH_RANDOM, ...WALL_CLOCK_PROPERTIES],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date']",
          message: 'src/sim reads no wall clock: use the virtual time (nowMs).',
        },
      ],
    },
  },
  {
    // Tests of the engine may use Node, but their randomness must still come from a seed they print.
    files: TEST_FILES,
    rules: { 'no-restricted-properties': ['error', MATH_RANDOM] },
  },
);
