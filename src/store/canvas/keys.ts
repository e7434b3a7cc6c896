// The keys of the canvas's boxes (React Flow node ids, layout keys, message ends), and the names
// the selectors share for nodes without a rack and Kafka's internal topics.
import type { NodeId } from '../../sim/types';
import type { ClientData } from './types';

export const nodeKey = (id: NodeId): string => `n${id}`;
export const zoneKey = (rack: string): string => `zone:${rack}`;
export const producerKey = (id: string): string => `producer:${id}`;
export const groupKey = (id: string): string => `group:${id}`;
export const standbyKey = (region: string): string => `standby:${region}`;
/** The layout key of a client card: its producer, group or standby key. */
export const clientKey = (c: Pick<ClientData, 'clientKind' | 'id'>): string =>
  c.clientKind === 'producer'
    ? producerKey(c.id)
    : c.clientKind === 'group'
      ? groupKey(c.id)
      : standbyKey(c.id);

/** The zone of the nodes that have no broker.rack. */
export const NO_RACK = 'no rack';

/** Topics whose names start with "__" are Kafka's own (__consumer_offsets). */
export const isInternalTopic = (topic: string): boolean => topic.startsWith('__');

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
