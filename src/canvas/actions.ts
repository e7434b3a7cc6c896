// The canvas's commands: each goes through the store's sendCommand; a refusal is announced and shown.
import { sendCommand } from '../store/connection';
import { useAnnouncementStore } from '../store/announcements';
import type { Command } from '../store/canvasTypes';
import { isolationGroups } from '../store/panels';
import { useSimulationStore } from '../store/simulation';

export async function run(command: Command, done: string): Promise<void> {
  const result = await sendCommand(command);
  if (result.ok) useAnnouncementStore.getState().announce(done);
  else useAnnouncementStore.getState().reportError(`Refused: ${result.error}`);
}

export const crashNode = (id: number) => run({ type: 'crashNode', nodeId: id }, `Node ${id} crashed.`);
export const restartNode = (id: number) => run({ type: 'restartNode', nodeId: id }, `Node ${id} restarting.`);
export const shutdownNode = (id: number) =>
  run({ type: 'shutdownNode', nodeId: id }, `Node ${id} shutting down (controlled).`);

/** Cuts `ids` off from every other node of the cluster (clients still reach every broker). */
export function isolate(ids: number[], what: string): Promise<void> {
  return run(
    { type: 'partitionNetwork', groups: isolationGroups(useSimulationStore.getState().snapshot, ids) },
    `${what} isolated from the rest of the cluster.`,
  );
}

/** The zone loses power: every node of the rack crashes at once (loseZone), unlike isolating it. */
export const loseZone = (rack: string) =>
  run({ type: 'loseZone', rack }, `Zone ${rack} lost power: every node of it crashed at once.`);

/** Power back: each crashed or stopped node of the zone restarts. */
export async function powerOnZone(rack: string): Promise<void> {
  const down = (useSimulationStore.getState().snapshot?.nodes ?? []).filter(
    (n) => n.rack === rack && n.state !== 'running',
  );
  for (const n of down) await run({ type: 'restartNode', nodeId: n.id }, `Node ${n.id} restarting.`);
}

export const healNetwork = () => run({ type: 'healNetwork' }, 'Network healed: every link restored.');
