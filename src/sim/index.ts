// The engine's public surface (ARCHITECTURE.md). The worker, the command-line runner, lessons
// and every test drive the engine through this module alone.

export { createSimulation, Simulation, ENGINE_VERSION } from './simulation';
export { ScenarioError, validateScenario, validateCommand, parseScenario, LIMITS } from './validate';
export { CONFIG_DEFS, checkConfig, checkTopicName } from './config';
export { murmur2, partitionForKey, toPositive } from './partitioner';
// Clients (issue 4): their configs with Kafka's defaults, and where a group's coordinator lives.
export { CONSUMER_CONFIGS, PRODUCER_CONFIGS } from './clientConfig';
export { OFFSETS_TOPIC, offsetsPartitionFor } from './groupCoordinator';
export { CONSUMED_TRACE_MAX } from './consumer';
export type * from './types';
// Operating the cluster (issue 7): sizing, failure budgets, reassignment plans, metrics, mirroring.
export { capacityPlan, SEED_EXAMPLE, type CapacityInput, type CapacityPlan } from './capacity';
export { failureBudget, type BudgetRules } from './budget';
export {
  generateReassignment,
  generateReassignmentWithSeed,
  leadershipSkew,
  type ReassignmentPlan,
} from './reassignment';
export { METRICS_CAPACITY, type MetricsSample, type ProduceLatency } from './metrics';
export type { Violation } from './invariants';
// A standby cluster in another region (a scenario's `mirror`): its types are in ./types.
export { MIRROR_DEFAULTS, MIRROR_MISSING_VIEW_MAX } from './mirror';
