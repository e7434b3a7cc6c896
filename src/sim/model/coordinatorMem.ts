// A broker's volatile group-coordinator memory (groups, pending offset appends, and the consumer
// fetch sessions the broker keeps beside them), made on first use. It dies with the process
// (groups/groupCoordinator.ts crashGroupCoordinator, called by process.ts): a restarted broker
// starts with none.

import type { CoordinatorMem, SimNode, World } from './world';

/** This broker's coordinator memory; a restarted broker starts with none. */
export function coordinatorMem(w: World, node: SimNode): CoordinatorMem {
  let cm = w.coordinators.get(node.id);
  if (!cm) {
    cm = {
      groups: new Map(),
      appends: new Map(),
      fetchSessions: new Map(),
      lastFetchSessionId: 0,
      parked: new Map(),
      parkTimer: { dueMs: -1, token: 0 },
      offsetsTopicWarnedAtMs: -Infinity,
      loadedPartitions: new Map(),
    };
    w.coordinators.set(node.id, cm);
  }
  return cm;
}
