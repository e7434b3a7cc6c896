// Which partition's log is open and which record's journey is shown (the Partition log tab), and
// the engine's view types the page draws them from.
import { create } from 'zustand';

export type {
  JourneyStage,
  JourneyStageKind,
  LogRecordView,
  PartitionLogView,
  RecordJourneyView,
  ReplicaLogView,
  TruncatedRecordView,
} from '../sim/types';

export interface RecordLogState {
  /** "topic-partition" of the open log, or null. */
  partition: string | null;
  /** The ledger record id whose journey is shown, or null. */
  recordId: number | null;
  openLog(partition: string): void;
  showJourney(recordId: number | null): void;
}

export const useRecordLogStore = create<RecordLogState>((set) => ({
  partition: null,
  recordId: null,
  openLog: (partition) => set((s) => (s.partition === partition ? s : { partition, recordId: null })),
  showJourney: (recordId) => set({ recordId }),
}));
