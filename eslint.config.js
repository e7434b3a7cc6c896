// Lint checks the code; the import rules (the layers of src/, the engine's tree, no cycles) are
// dependency-cruiser's, in .dependency-cruiser.cjs (`npm run deps`, docs/architecture.md).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TEST_FILES = ['src/**/*.test.ts'];

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
  message: `src/sim is a pure, deterministic library: no ${name} (docs/architecture.md).`,
}));

const MATH_RANDOM = {
  object: 'Math',
  property: 'random',
  message: 'Use the seeded RNG (src/sim/kernel/rng.ts), so that a seed replays a run.',
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
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },

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
    rules: {
      'no-restricted-properties': ['error', MATH_RANDOM],
      // Tests look at the engine through the snapshot and the story driver's verbs
      // (src/sim/testing/driver.ts); only the driver reads the World, so its shape is fixed in one place.
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='world'][object.property.name='sim']",
          message:
            'Tests do not reach into sim.world: use a verb of src/sim/testing/driver.ts (or d.tamper to corrupt state on purpose).',
        },
      ],
    },
  },
);
