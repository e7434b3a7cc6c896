// The engine's public surface (ARCHITECTURE.md). The worker, the command-line runner, lessons
// and every test drive the engine through this module alone.

export { createSimulation, Simulation, ENGINE_VERSION } from './simulation';
export { ScenarioError, validateScenario, validateCommand, parseScenario, LIMITS } from './validate';
export { CONFIG_DEFS, checkConfig, checkTopicName } from './model/config';
export { murmur2, partitionForKey, toPositive } from './clients/partitioner';
// Clients (issue 4): their configs with Kafka's defaults, and where a group's coordinator lives.
export { CONSUMER_CONFIGS, PRODUCER_CONFIGS } from './model/clientConfig';
export { OFFSETS_TOPIC, offsetsPartitionFor } from './groups/groupCoordinator';
export { CONSUMED_TRACE_MAX } from './clients/consumer';
export type * from './model/types';
// Operating the cluster (issue 7): sizing, failure budgets, reassignment plans, metrics, mirroring.
export { capacityPlan, SEED_EXAMPLE, type CapacityInput, type CapacityPlan } from './operations/capacity';
export { failureBudget, type BudgetRules } from './operations/budget';
export {
  generateReassignment,
  generateReassignmentWithSeed,
  leadershipSkew,
  type ReassignmentPlan,
} from './operations/reassignment';
export { METRICS_CAPACITY, type MetricsSample, type ProduceLatency } from './observe/metrics';
export type { Violation } from './observe/invariants';
// A standby cluster in another region (a scenario's `mirror`): its types are in ./types.
export { MIRROR_DEFAULTS, MIRROR_MISSING_VIEW_MAX } from './operations/mirror';
