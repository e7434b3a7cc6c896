// The import rules of src/, checked by `npm run deps` (dependency-cruiser) in `npm test`.
// docs/architecture.md explains them: the layers of src/, and the engine's tree inside src/sim.
// There are no exceptions: every violation fails `npm run deps`.
// Paths are matched from the repository root; a test file (*.test.ts) may reach further than the
// code it tests, as each rule says.

const TEST = '\\.test\\.tsx?$';

/** The layers of src/: each folder may import only itself, the listed layers and the listed packages. */
const LAYERS = {
  sim: { layers: [], packages: [] },
  // fflate: the session codec compresses shared links (docs/sharing.md).
  scenario: { layers: ['sim'], packages: ['fflate'] },
  worker: { layers: ['sim', 'scenario'], packages: [] },
  store: { layers: ['worker', 'sim'], packages: ['zustand'] },
  canvas: {
    layers: ['store', 'scenario'],
    packages: ['react', 'react-dom', 'zustand', '@xyflow/react', 'framer-motion'],
  },
  panels: {
    layers: ['store', 'scenario'],
    packages: ['react', 'react-dom', 'zustand', '@xyflow/react', 'framer-motion'],
  },
  lessons: {
    layers: ['store', 'scenario'],
    packages: ['react', 'react-dom', 'zustand', '@xyflow/react', 'framer-motion'],
  },
};

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const NPM = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'];

function layerRules(name, { layers, packages }) {
  const own = `^src/${name}/`;
  const allowed = [name, ...layers];
  // Tests may also drive the engine with the built-in scenarios, and use Node and the dev dependencies.
  const allowedInTests = [...allowed, 'scenario'];
  const pkgs = packages.length ? `(^|/)node_modules/(${packages.map(escapeRegex).join('|')})/` : '^$';
  return [
    {
      name: `layer-${name}`,
      comment: `src/${name} may import only ${allowed.map((l) => `src/${l}`).join(', ')} (docs/architecture.md, layers).`,
      severity: 'error',
      from: { path: own, pathNot: TEST },
      to: { path: '^src/', pathNot: `^src/(${allowed.join('|')})/` },
    },
    {
      name: `layer-${name}-tests`,
      comment: `Tests in src/${name} may import only ${allowedInTests.map((l) => `src/${l}`).join(', ')}.`,
      severity: 'error',
      from: { path: `${own}.*${TEST}` },
      to: { path: '^src/', pathNot: `^src/(${allowedInTests.join('|')})/` },
    },
    {
      name: `layer-${name}-packages`,
      comment: packages.length
        ? `src/${name} may import only these packages: ${packages.join(', ')} (docs/architecture.md, layers).`
        : `src/${name} imports no packages (docs/architecture.md, layers).`,
      severity: 'error',
      from: { path: own, pathNot: TEST },
      to: { dependencyTypes: [...NPM, 'core'], pathNot: pkgs },
    },
    {
      name: `layer-${name}-test-packages`,
      comment: `Tests in src/${name} may use Node and the dev dependencies, and otherwise only the layer's packages.`,
      severity: 'error',
      from: { path: `${own}.*${TEST}` },
      to: { dependencyTypes: NPM.filter((t) => t !== 'npm-dev'), pathNot: pkgs },
    },
  ];
}

/**
 * The engine's tree (src/sim): each folder is a Kafka subsystem and may import only the folders
 * listed. Imports run one way: model <- kernel <- kraft <- broker <- groups, txn; clients see only the
 * model and the kernel (a client knows the cluster only through the network); operations see
 * model, kernel and kraft; observe reads everything and no subsystem imports it; tools (Kafka's
 * command-line tools) read what an Admin client would and only the facade imports them. The files at the
 * top of src/sim (the Simulation facade, the dispatcher, the validator, the public entries) may
 * import every folder; no folder imports them.
 */
const ENGINE = {
  model: [],
  kernel: ['model'],
  kraft: ['model', 'kernel'],
  broker: ['model', 'kernel', 'kraft'],
  // The partition assignors, client side and broker side: pure functions of members and partitions.
  assignors: ['model', 'kernel'],
  groups: ['model', 'kernel', 'kraft', 'broker', 'assignors'],
  // The transaction coordinator (KIP-98): placed as groups/ is, beside it (neither imports the other).
  txn: ['model', 'kernel', 'kraft', 'broker'],
  clients: ['model', 'kernel', 'assignors'],
  operations: ['model', 'kernel', 'kraft'],
  observe: ['model', 'kernel', 'kraft', 'broker', 'groups', 'txn', 'clients', 'operations', 'assignors'],
  // Kafka's command-line tools read the cluster as an Admin client would; only the facade runs them.
  tools: ['model', 'kernel', 'kraft', 'broker', 'groups', 'txn', 'observe', 'assignors', 'operations'],
};

const engineRules = Object.entries(ENGINE).map(([folder, allowed]) => ({
  name: `engine-${folder}`,
  comment:
    `src/sim/${folder} may import only ` +
    (allowed.length ? allowed.map((f) => `src/sim/${f}`).join(', ') + ' and itself' : 'itself') +
    ' (docs/architecture.md, the engine tree).',
  severity: 'error',
  from: { path: `^src/sim/${folder}/`, pathNot: TEST },
  to: { path: '^src/sim/', pathNot: `^src/sim/(${[folder, ...allowed].join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import cycles in src: a cycle ties modules so that neither can be read, tested or moved alone.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...Object.entries(LAYERS).flatMap(([name, allowed]) => layerRules(name, allowed)),
    {
      name: 'store-worker-protocol-only',
      comment: 'src/store may import only the worker protocol (src/worker/protocol.ts).',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/worker/', pathNot: '^src/worker/protocol\\.ts$' },
    },
    {
      name: 'store-sim-types-only',
      comment: 'src/store may import only types from src/sim: use `import type`.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/sim/', dependencyTypesNot: ['type-only'] },
    },
    ...engineRules,
    {
      name: 'engine-public-surface',
      comment:
        'Outside src/sim, import the engine through src/sim/index.ts (values and types) or src/sim/types.ts ' +
        '(types) only; tests may also use the helpers in src/sim/testing.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/sim/' },
      to: { path: '^src/sim/', pathNot: '^src/sim/(index\\.ts|types\\.ts|testing/)' },
    },
    {
      name: 'engine-testing-for-tests',
      comment: 'src/sim/testing holds test helpers: only tests (and the helpers themselves) import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [TEST, '^src/sim/testing/'] },
      to: { path: '^src/sim/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules may be a link to another checkout's: keep the paths as they are written.
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
