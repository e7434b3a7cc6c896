// What the user has selected on the canvas or in a panel: one broker, controller, partition or client.
import { create } from 'zustand';

export type SelectionKind = 'broker' | 'controller' | 'partition' | 'producer' | 'group' | 'client';

/**
 * `id`: the node id for brokers and controllers, "topic-partition" for partitions (e.g. "orders-0"),
 * the client id for producers, groups and other clients.
 */
export interface Selection {
  kind: SelectionKind;
  id: number | string;
}

export interface SelectionState {
  selected: Selection | null;
  select(selection: Selection | null): void;
}

export const useSelectionStore = create<SelectionState>((set) => ({
  selected: null,
  select: (selected) => set({ selected }),
}));

/** Whether node `id` is selected, as a broker or as a controller. */
export const isNodeSelected = (selected: Selection | null, id: number): boolean =>
  selected !== null && (selected.kind === 'broker' || selected.kind === 'controller') && selected.id === id;

/** "orders-0" → { topic: "orders", partition: 0 }; topics may contain dashes, the last one splits. */
export function parsePartitionId(id: number | string): { topic: string; partition: number } | null {
  const [, topic, partition] = /^(.+)-(\d+)$/.exec(String(id)) ?? [];
  return topic !== undefined && partition !== undefined ? { topic, partition: Number(partition) } : null;
}
