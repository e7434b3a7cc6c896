// A lesson step's subject: what the step talks about, for the page to highlight and keep in view
// (the brokers or controllers on the canvas, the side-panel form its task needs). Derived from the
// step's task and commands; a small map names it where the commands do not.
import type { Command, Snapshot } from '../scenario';
import type { Spotlight } from '../store/spotlight';
import { commandsFor, type LessonStep } from '../scenario/lessons';

type Panel = NonNullable<Spotlight['panel']>;

const NETWORK: Panel = { tab: 'controls', section: 'Network' };

/** The side-panel form where the learner does what a task command amounts to. */
function panelFor(command: Command): Panel | null {
  switch (command.type) {
    case 'cutLink':
    case 'partitionNetwork':
    case 'healNetwork':
      return NETWORK;
    case 'alterConfig':
      return { tab: 'controls', section: 'Alter configs' };
    case 'addNode':
      return { tab: 'controls', section: 'Add a broker' };
    case 'reassignPartitions':
      return { tab: 'controls', section: 'Reassign partitions' };
    case 'electLeaders':
      // Preferred elections have a button under "Leadership skew"; an unclean one is the partition's.
      return command.electionType === 'preferred' ? { tab: 'controls', section: 'Leadership skew' } : null;
    case 'loseRegion':
      return { tab: 'regions', section: 'Regions' };
    default:
      return null;
  }
}

const leaderOf = (start: Snapshot | null, topic: string, partition: number): number[] => {
  const p = start?.partitions.find((x) => x.topic === topic && x.partition === partition);
  return p && p.leader >= 0 ? [p.leader] : [];
};

/** The nodes a command acts on. */
function nodesFor(command: Command, start: Snapshot | null): number[] {
  switch (command.type) {
    case 'crashNode':
    case 'restartNode':
    case 'shutdownNode':
      return [command.nodeId];
    case 'cutLink':
      return [command.from, command.to].filter((x): x is number => typeof x === 'number');
    case 'loseZone':
      return (start?.nodes ?? []).filter((n) => n.rack === command.rack).map((n) => n.id);
    case 'partitionNetwork': {
      // The side cut off: the smallest group (the lone active controller, a zone).
      const smallest = [...command.groups].sort((a, b) => a.length - b.length)[0];
      return smallest ?? [];
    }
    case 'electLeaders':
      if (command.electionType !== 'unclean') return [];
      return (command.partitions ?? []).flatMap(
        (tp) =>
          start?.partitions.find((x) => x.topic === tp.topic && x.partition === tp.partition)?.replicas ?? [],
      );
    case 'produce':
      return command.partition === undefined ? [] : leaderOf(start, command.topic, command.partition);
    default:
      return [];
  }
}

const LIFECYCLE_LOG: Partial<Spotlight> = {
  nodes: [2],
  panel: { tab: 'log', section: 'Partition log' },
  log: 'orders-0',
};

/** Steps whose commands do not name what they are about. Keyed `lessonId/stepId`. */
const EXPLICIT: Record<string, Partial<Spotlight>> = {
  // The partitions broker 4 led get new leaders: the step is about the broker that died.
  'broker-failure/election': { nodes: [4] },
  'unclean-election/write': { nodes: [2, 3] },
  'two-regions/mirror': { panel: { tab: 'regions', section: 'Regions' } },
  // The record's stages are read in the Partition log tab, on the partition the key hashes to.
  ...Object.fromEntries(
    ['journey', 'followers', 'fetched', 'commit'].map((id) => [`message-lifecycle/${id}`, LIFECYCLE_LOG]),
  ),
};

/** What the step is about; `start` is the cluster as the step began (for commands that depend on it). */
export function subjectOf(lessonId: string, step: LessonStep, start: Snapshot | null): Spotlight {
  const safe = (commands: LessonStep['commands']): Command[] =>
    typeof commands === 'function' && !start ? [] : commandsFor(commands, start as Snapshot);
  const task = safe(step.task?.commands);
  const own = safe(step.commands);
  const explicit = EXPLICIT[`${lessonId}/${step.id}`] ?? {};
  const nodes = explicit.nodes ?? [...new Set([...task, ...own].flatMap((c) => nodesFor(c, start)))];
  const panel = explicit.panel ?? task.map(panelFor).find((p) => p !== null) ?? null;
  return {
    nodes: nodes.sort((a, b) => a - b),
    panel,
    ...(explicit.log ? { log: explicit.log } : {}),
  };
}
