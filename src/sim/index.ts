// The engine's public surface (ARCHITECTURE.md). The worker, the command-line runner, lessons
// and every test drive the engine through this module alone.

export { createSimulation, Simulation, ENGINE_VERSION } from './simulation';
export { ScenarioError, validateScenario, validateCommand, parseScenario, LIMITS } from './validate';
export { CONFIG_DEFS, checkConfig, checkTopicName } from './config';
export { murmur2, partitionForKey, toPositive } from './partitioner';
export type * from './types';
