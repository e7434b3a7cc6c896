// View models of the side panels: pure functions from what the worker sent to what the panels
// show, one module a panel.
//   dashboard.ts    the partitions table
//   partitionMatrix.ts every partition as a cell, a row a topic (large clusters)
//   health.ts       the health bar
//   eventLog.ts     the event log and what each event is about
//   inspector.ts    the inspector and its list of what it can show
//   fieldErrors.ts  Kafka errors placed on form fields
//   ledger.ts       the records a form sent
//   network.ts      racks and isolation groups for the network controls
//   formValues.ts   config values, config entries and client ids as typed
//   faultTolerance.ts topics that cannot lose a broker or a zone

// The panels import the engine's types through the store, never src/sim itself (the layer rule
// that eslint.config.js enforces).
export type {
  Acks,
  Command,
  CommandResult,
  ConfigValue,
  LedgerEntry,
  NodeView,
  ProcessorView,
  ProducerView,
  SimEvent,
  Snapshot,
} from '../../sim/types';
export type { LedgerQuery } from '../../worker/protocol';
export type { LedgerReply } from '../connection';

export {
  byTopicThenPartition,
  dashboardRow,
  filterDashboardRows,
  problemScore,
  selectDashboardRows,
  sortDashboardRows,
  topicMinIsr,
  type DashboardFilter,
  type DashboardRow,
  type DashboardSortKey,
  type SortDirection,
} from './dashboard';
export * from './partitionMatrix';
export * from './health';
export * from './eventLog';
export * from './fieldErrors';
export * from './ledger';
export * from './inspector';
export * from './network';
export * from './formValues';
export * from './faultTolerance';
