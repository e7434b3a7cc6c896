import { beforeEach, describe, expect, it } from 'vitest';
import type { SimEvent, Snapshot } from '../sim/types';
import { EVENT_LOG_LIMIT, receiveSimulationMessage, useSimulationStore } from './simulation';

const snapshot = { timeMs: 1000 } as Snapshot;
const eventsFrom = (first: number, count: number): SimEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    seq: first + i,
    timeMs: 0,
    type: 'BrokerRegistered',
    message: '',
  }));

describe('the simulation store', () => {
  beforeEach(() => {
    useSimulationStore.setState(useSimulationStore.getInitialState(), true);
  });

  it('appends the events of each snapshot of the same run', () => {
    receiveSimulationMessage({ type: 'snapshot', run: 0, snapshot, events: eventsFrom(0, 2) });
    receiveSimulationMessage({ type: 'snapshot', run: 0, snapshot, events: eventsFrom(2, 1) });
    expect(useSimulationStore.getState().events.map((e) => e.seq)).toEqual([0, 1, 2]);
  });

  it('starts a new log when a new run begins', () => {
    receiveSimulationMessage({ type: 'snapshot', run: 0, snapshot, events: eventsFrom(0, 3) });
    receiveSimulationMessage({ type: 'snapshot', run: 1, snapshot, events: eventsFrom(0, 1) });
    expect(useSimulationStore.getState().events.map((e) => e.seq)).toEqual([0]);
  });

  it('keeps only the latest events', () => {
    receiveSimulationMessage({
      type: 'snapshot',
      run: 0,
      snapshot,
      events: eventsFrom(0, EVENT_LOG_LIMIT + 5),
    });
    const { events } = useSimulationStore.getState();
    expect(events).toHaveLength(EVENT_LOG_LIMIT);
    expect(events[0]?.seq).toBe(5);
  });

  it('reports a message of an unknown type as an error', () => {
    receiveSimulationMessage({ type: 'mystery' } as never);
    expect(useSimulationStore.getState().error?.message).toBe('Unknown message type "mystery"');
  });
});
