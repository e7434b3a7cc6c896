import { assert, describe, expect, it } from 'vitest';
import type { SimEvent } from '../sim/types';
import { foldEventLogRows, type EventLogEntry } from './eventFolding';
import { EVENT_CATEGORIES, selectEventLogRows } from './panels';

let seq = 0;
const event = (timeMs: number, type: string, fields: Partial<SimEvent> = {}): SimEvent => ({
  seq: ++seq,
  timeMs,
  type,
  message: `${type} ${fields.nodeId ?? ''}`,
  ...fields,
});
const applied = (timeMs: number, nodeId: number, metadataOffset: number) =>
  event(timeMs, 'MetadataApplied', { nodeId, metadataOffset, count: 1 });
const all = new Set(EVENT_CATEGORIES.map((c) => c.id));
const fold = (events: SimEvent[]) => foldEventLogRows(selectEventLogRows(events, all));
const lines = (entries: EventLogEntry[]) =>
  entries.map((e) => (e.kind === 'group' ? `${e.summary} (${e.rows.length})` : e.row.type));

describe('folding routine events in the event log', () => {
  it('folds the six MetadataApplied of one change into one line naming the offset and the brokers', () => {
    const events = [
      event(4272, 'TopicCreated', { topic: 'orders' }),
      ...[4, 5, 6, 7, 8, 9].map((id) => applied(4273, id, 9)),
    ];
    expect(lines(fold(events))).toEqual([
      'MetadataApplied at offset 9 by brokers 4, 5, 6, 7, 8 and 9 (6)',
      'TopicCreated',
    ]);
  });

  it('keeps every folded event reachable, newest first, as in the log', () => {
    const events = [applied(10, 4, 3), applied(10, 5, 3), applied(11, 6, 3)];
    const [group] = fold(events);
    assert(group?.kind === 'group', 'the run folds into a group');
    expect(group.rows.map((r) => r.seq)).toEqual(events.map((e) => e.seq).reverse());
    expect(group.time).toBe(group.rows[0].time);
  });

  it('says the range when the brokers applied different offsets', () => {
    expect(lines(fold([applied(1, 5, 4), applied(1, 4, 6), applied(1, 4, 7)]))).toEqual([
      'MetadataApplied at offsets 4–7 by brokers 4 and 5 (3)',
    ]);
  });

  it('leaves a lone routine event and every other event as their own lines, in order', () => {
    const events = [
      applied(1, 4, 3),
      event(2, 'BrokerUnfenced', { nodeId: 4 }),
      applied(3, 4, 4),
      applied(3, 5, 4),
      event(4, 'BrokerUnfenced', { nodeId: 5 }),
      event(5, 'BrokerUnfenced', { nodeId: 6 }),
    ];
    expect(lines(fold(events))).toEqual([
      'BrokerUnfenced',
      'BrokerUnfenced',
      'MetadataApplied at offset 4 by brokers 4 and 5 (2)',
      'BrokerUnfenced',
      'MetadataApplied',
    ]);
  });

  it('keeps a group key as newer events join the run, so an opened group stays open', () => {
    const first = [applied(1, 4, 3), applied(1, 5, 3)];
    const [before] = fold(first);
    const [after] = fold([...first, applied(1, 6, 3)]);
    expect(before?.kind === 'group' && after?.kind === 'group' && before.key === after.key).toBe(true);
  });
});
