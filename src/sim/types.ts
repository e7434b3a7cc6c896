// The engine's public types: the scenario format, commands, snapshot views, events (./model/types),
// and the types of what the Simulation reports besides. Layers that may import only types from
// the engine (src/store) import them from here.

export type * from './model/types';
export type * from './model/views';
export type { CliRun, Simulation, StableOffsets } from './simulation';
export type { MetricsSample, ProduceLatency } from './model/metricsSeries';
export type { Violation } from './observe/invariants';
export type { ReassignmentPlan } from './operations/reassignment';
export type { CapacityInput, CapacityPlan } from './operations/capacity';
export type {
  LogRecordView,
  PartitionLogView,
  ReplicaLogView,
  TruncatedRecordView,
} from './observe/partitionLog';
export type { JourneyStage, JourneyStageKind, RecordJourneyView } from './observe/recordJourney';
export type {
  MessageCategory,
  MessageDiagramView,
  MessageQuery,
  MessageSampling,
  WireMessageView,
} from './observe/messageDiagram';
export type { LossReason } from './model/messageTrail';
export type { ClientHistoryView, ClientSendView, SendOutcome } from './observe/clientHistory';
export type { RecordMemoryView } from './kernel/recordCeiling';
