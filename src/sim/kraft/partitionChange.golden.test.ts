import { describe, expect, it } from 'vitest';
import golden from './partitionChange.golden.json';
import { mergeChange, partitionChangeRecord, type BuilderInput } from './partitionChange';

// Random walks through a partition's life (fencing, unfencing, unclean restarts, ISR changes,
// preferred and unclean elections, controlled shutdowns, reassignments; ELR on and off), each step
// asked of Kafka's own PartitionChangeBuilder (trunk 1eb7644) by a program that is not part of this
// repository; it wrote down the state after Kafka's record (the format is in the file).

const ids = (s: string | undefined) => (s ? s.split(',').map(Number) : []);

function input(line: string): BuilderInput {
  const f = line.split('|');
  const [replicas, isr, elr, lastKnownElr, leader, leaderEpoch, partitionEpoch, adding, removing] = f;
  const [
    acceptable,
    minIsr,
    elrEnabled,
    election,
    targetIsr,
    targetReplicas,
    targetAdding,
    targetRemoving,
    unclean,
  ] = f.slice(9);
  const ok = ids(acceptable);
  return {
    partition: {
      topic: 't',
      partition: 0,
      replicas: ids(replicas),
      isr: ids(isr),
      elr: ids(elr),
      ...(lastKnownElr ? { lastKnownElr: ids(lastKnownElr) } : {}),
      leader: Number(leader),
      leaderEpoch: Number(leaderEpoch),
      partitionEpoch: Number(partitionEpoch),
      adding: ids(adding),
      removing: ids(removing),
    },
    acceptable: (r) => ok.includes(r),
    minIsr: Number(minIsr),
    elrEnabled: elrEnabled === '1',
    election: election as BuilderInput['election'],
    ...(targetIsr !== '-' ? { targetIsr: ids(targetIsr) } : {}),
    ...(targetReplicas !== '-'
      ? {
          reassign: {
            replicas: ids(targetReplicas),
            adding: ids(targetAdding),
            removing: ids(targetRemoving),
          },
        }
      : {}),
    ...(unclean !== '-' ? { uncleanShutdown: ids(unclean) } : {}),
  };
}

function answer(i: BuilderInput): string | null {
  const res = partitionChangeRecord(i);
  if (!res) return null;
  const n = mergeChange(i.partition, res.record);
  return [
    n.leader,
    n.leaderEpoch,
    n.partitionEpoch,
    n.replicas.join(','),
    n.isr.join(','),
    n.elr.join(','),
    (n.lastKnownElr ?? []).join(','),
    n.adding.join(','),
    n.removing.join(','),
    res.record.leaderRecovering ? 1 : 0,
  ].join('|');
}

describe("PartitionChangeBuilder: Kafka's recorded answers (partitionChange.golden.json)", () => {
  const cases = golden.cases as { step: string; in: string; out: string | null }[];
  const elr = (on: boolean) => cases.filter((c) => (c.in.split('|')[11] === '1') === on);

  it.each([
    ['with ELR', elr(true)],
    ['without ELR', elr(false)],
  ])('%s: every step as Kafka takes it', (_, some) => {
    expect(some.length).toBeGreaterThanOrEqual(1000);
    const wrong = some
      .filter((c) => answer(input(c.in)) !== c.out)
      .map((c) => `${c.step}: ${c.in} -> ${c.out}`);
    expect(wrong).toEqual([]);
  });

  it('covers clean, ELR, last-known-ELR and unclean elections, and losing the leader', () => {
    const kinds = new Set(
      cases.map((c) => {
        const res = partitionChangeRecord(input(c.in));
        return res?.election ?? (res && res.record.leader === -1 ? 'leader lost' : 'other');
      }),
    );
    expect([...kinds].sort()).toEqual([
      'clean',
      'elr',
      'last-known-elr',
      'leader lost',
      'other',
      'preferred',
      'unclean',
    ]);
  });
});
