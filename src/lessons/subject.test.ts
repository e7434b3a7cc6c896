import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newSession, replaySession } from '../scenario';
import { lessonById, lessons } from '../scenario/lessons';
import { subjectOf } from './subject';

const step = (lessonId: string, stepId: string) => lessonById(lessonId)!.steps.find((s) => s.id === stepId)!;

/** The cluster of a lesson after its boot, as a step would begin. */
function booted(lessonId: string) {
  const { sim } = replaySession(newSession(lessonById(lessonId)!.scenario));
  sim.advance(15_000);
  return sim.snapshot();
}

describe("a lesson step's subject", () => {
  it('is the node a task crashes or restarts', () => {
    expect(subjectOf('broker-failure', step('broker-failure', 'crash'), null)).toEqual({
      nodes: [4],
      panel: null,
    });
    expect(subjectOf('replication', step('replication', 'catch-up'), null).nodes).toEqual([4]);
  });

  it('is the side-panel form a task needs, with the nodes it names', () => {
    expect(subjectOf('isr', step('isr', 'slow-follower'), null)).toEqual({
      nodes: [2, 4],
      panel: { tab: 'controls', section: 'Network' },
    });
    expect(subjectOf('acks-and-min-isr', step('acks-and-min-isr', 'strict'), null).panel).toEqual({
      tab: 'controls',
      section: 'Alter configs',
    });
    expect(subjectOf('two-regions', step('two-regions', 'lose-region'), null).panel?.tab).toBe('regions');
  });

  it("opens the Partition log on the record's partition for the steps about its journey", () => {
    for (const id of ['journey', 'followers', 'fetched', 'commit'])
      expect(subjectOf('message-lifecycle', step('message-lifecycle', id), null)).toEqual({
        nodes: [2],
        panel: { tab: 'log', section: 'Partition log' },
        log: 'orders-0',
      });
    // The heading the page rings is a section's own (src/app/followSubject.ts looks for section > h2).
    const panel = readFileSync('src/panels/PartitionLogPanel.tsx', 'utf8');
    expect(panel).toMatch(/<section className="partition-log"[^>]*>\s*<h2[^>]*>Partition log<\/h2>/);
    expect(subjectOf('message-lifecycle', step('message-lifecycle', 'send'), null).log).toBeUndefined();
  });

  it('follows the cluster for commands built from it: the active controller that crashes', () => {
    const start = booted('kraft-quorum');
    expect(start.quorum.leaderId).not.toBeNull();
    expect(subjectOf('kraft-quorum', step('kraft-quorum', 'failover'), start).nodes).toEqual([
      start.quorum.leaderId,
    ]);
    // Before the step's first snapshot such a step has no subject yet, rather than a wrong one.
    expect(subjectOf('kraft-quorum', step('kraft-quorum', 'failover'), null).nodes).toEqual([]);
  });

  it('names every task of the library, with forms that exist in the side panels', () => {
    const panels = readdirSync('src/panels')
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => readFileSync(`src/panels/${f}`, 'utf8'))
      .join('\n');
    for (const lesson of lessons) {
      const start = booted(lesson.id);
      for (const s of lesson.steps) {
        if (!s.task) continue;
        const subject = subjectOf(lesson.id, s, start);
        expect(subject.nodes.length + (subject.panel ? 1 : 0), `${lesson.id}/${s.id}`).toBeGreaterThan(0);
        if (subject.panel)
          expect(panels, subject.panel.section).toMatch(new RegExp(`>${subject.panel.section}</h[23]>`));
      }
    }
  });
});
