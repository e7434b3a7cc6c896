// The engine's public surface (docs/architecture.md). Every other layer of src/, the command-line
// tools and every test outside src/sim drive the engine through this module and ./types alone;
// `npm run deps` refuses an import of anything else in src/sim from outside it.

export { createSimulation, Simulation, ENGINE_VERSION } from './simulation';
export {
  COMMAND_TYPES,
  LIMITS,
  SCENARIO_VERSION,
  ScenarioError,
  formatIssues,
  parseScenario,
  validateCommand,
  validateScenario,
  type CommandContext,
} from './validate';
export {
  CONFIG_DEFS,
  CONSUMER_DEFAULTS,
  MAX_TOPIC_NAME_LENGTH,
  PRODUCER_DEFAULTS,
  checkConfig,
  checkTopicName,
  clusterDefaults,
  type ConfigDef,
  type ConfigScope,
} from './model/config';
// Quoting a user's value in a message, and the path of a user's key (shared with the session codec).
export { MAX_QUOTED_CHARS, checkShape, keyPath, quote, shortText } from './model/userText';
export { murmur2, partitionForKey, toPositive } from './clients/partitioner';
// Clients: their configs with Kafka's defaults, and where a group's coordinator lives.
export { CONSUMER_CONFIGS, PRODUCER_CONFIGS } from './model/clientConfig';
export { OFFSETS_TOPIC, offsetsPartitionFor } from './groups/offsetsTopic';
export { CONSUMED_TRACE_MAX } from './clients/consumerFetcher';
export { PARTITION_LOG_MAX_WINDOW } from './observe/partitionLog';
export { RECORDS_HELD_CEILING } from './kernel/recordCeiling';
export { MESSAGE_CATEGORIES, MESSAGE_QUERY_MAX } from './observe/messageDiagram';
export type * from './types';
// Kafka's command-line tools (the cli command): their names and options, for completion.
export { CLI_TOOLS } from './tools';
// Operating the cluster: sizing, failure budgets, reassignment plans, metrics, mirroring.
export { capacityPlan, SEED_EXAMPLE } from './operations/capacity';
export { failureBudget, type BudgetRules } from './operations/budget';
export {
  generateReassignment,
  generateReassignmentWithSeed,
  leadershipSkew,
} from './operations/reassignment';
export { METRICS_CAPACITY } from './model/metricsSeries';
// A standby cluster in another region (a scenario's `mirror`): its types are in ./types.
export { MIRROR_DEFAULTS, MIRROR_MISSING_VIEW_MAX } from './operations/mirror';
// The seeded PRNG, for tests and tools that pick at random from a seed they print; the hash of
// the state hashes (golden runs).
export { nextInt, seedRng, type RngState } from './kernel/rng';
export { hashValue } from './kernel/hash';
