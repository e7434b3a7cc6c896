// The scenario layer: built-in presets, and the format's validation (which lives in the engine,
// so that createSimulation refuses a bad scenario with the same issues).

export { defaultScenario, presets, type Preset } from './presets';
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
} from '../sim';
export {
  CONFIG_DEFS,
  CONSUMER_DEFAULTS,
  PRODUCER_DEFAULTS,
  checkConfig,
  checkTopicName,
  clusterDefaults,
  type ConfigDef,
  type ConfigScope,
} from '../sim';
export type { Scenario, ScenarioIssue, Command } from '../sim/types';
export * from './session';
// Operating the cluster: sizing on paper, for the panels.
export { capacityPlan, SEED_EXAMPLE, type CapacityInput, type CapacityPlan } from '../sim';
export { MAX_SESSION_FILE_BYTES, sessionFileSizeIssues } from './sessionFile';
export {
  importLayout,
  REASSIGN_AT_MS,
  type ImportResult,
  type ImportSummary,
  type LineStatus,
  type ReportLine,
} from './importLayout';
