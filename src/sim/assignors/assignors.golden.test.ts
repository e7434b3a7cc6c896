import { describe, expect, it } from 'vitest';
import golden from './assignors.golden.json';
import { AssignorError } from './assignment';
import { cooperativeStickyAssign } from './cooperativeStickyAssignor';
import { uniformAssign } from './uniformAssignor';

// Random groups asked of Kafka's own CooperativeStickyAssignor and UniformAssignor (at trunk
// 1eb7644) by a program that is not part of this repository; it wrote down their answers (the
// format is in the file). Each member's assignment is compared as a set (the simulator lists it in
// order); a case Kafka refuses must be refused here too.

type Answer = Record<string, string> | 'refused';

function outcome(run: () => Map<string, string[]>): Answer {
  try {
    return Object.fromEntries(
      [...run()].filter(([, tps]) => tps.length).map(([id, tps]) => [id, [...tps].sort().join(' ')]),
    );
  } catch (e) {
    if (e instanceof AssignorError) return 'refused';
    throw e;
  }
}

function expected(c: { a?: Record<string, string>; error?: string }): Answer {
  if (!c.a) return 'refused';
  return Object.fromEntries(
    Object.entries(c.a)
      .filter(([, tps]) => tps.length)
      .map(([id, tps]) => [id, tps.split(' ').sort().join(' ')]),
  );
}

interface GoldenCase {
  k: string;
  m: string[];
  a?: Record<string, string>;
  error?: string;
}
const sticky = golden.cooperativeSticky as (GoldenCase & { t: string })[];
const uniform = golden.uniform as (GoldenCase & { topicIds: string })[];

const list = (s: string | undefined) => (s ? s.split(/[ ,]/) : []);

describe("CooperativeStickyAssignor: Kafka's recorded answers (assignors.golden.json)", () => {
  for (const kind of ['same-fresh', 'same-owned', 'different-fresh', 'different-owned']) {
    const cases = sticky.filter((c) => c.k === kind);
    it(`${kind} subscriptions and ownership: all ${cases.length} cases as Kafka assigns them`, () => {
      expect(cases.length).toBeGreaterThanOrEqual(500);
      const wrong = cases.flatMap((c, i) => {
        const topics = Object.fromEntries(
          list(c.t).map((tc) => [tc.split(':')[0]!, Number(tc.split(':')[1])]),
        );
        const members = c.m.map((line) => {
          const [memberId = '', gen, userGen, subscribed, owned] = line.split(';');
          return {
            memberId,
            subscription: {
              topics: list(subscribed),
              ownedPartitions: list(owned).map((tp) => ({
                topic: tp.split(':')[0]!,
                partition: Number(tp.split(':')[1]),
              })),
              generationId: Number(gen),
              userDataGeneration: Number(userGen),
            },
          };
        });
        const got = outcome(
          () =>
            new Map(
              [...cooperativeStickyAssign(members, topics)].map(([id, tps]) => [
                id,
                tps.map((tp) => `${tp.topic}:${tp.partition}`),
              ]),
            ),
        );
        return JSON.stringify(got) === JSON.stringify(expected(c)) ? [] : [i];
      });
      expect(wrong).toEqual([]);
    });
  }
});

describe("UniformAssignor: Kafka's recorded answers (assignors.golden.json)", () => {
  for (const kind of ['same-fresh', 'same-previous', 'different-fresh', 'different-previous']) {
    const cases = uniform.filter((c) => c.k === kind);
    it(`${kind} subscriptions and targets: all ${cases.length} cases as Kafka assigns them`, () => {
      expect(cases.length).toBeGreaterThanOrEqual(500);
      const wrong = cases.flatMap((c, i) => {
        const ids = list(c.topicIds).map((tc) => tc.split(':')[0]!);
        const counts = Object.fromEntries(
          list(c.topicIds).map((tc) => [tc.split(':')[0]!, Number(tc.split(':')[1])]),
        );
        const members = c.m.map((line) => {
          const [memberId = '', subscribed, previous] = line.split(';');
          return {
            memberId,
            topicIds: list(subscribed).map((i) => ids[Number(i)]!),
            previous: list(previous).map((x) => ({
              topicId: ids[Number(x.split(':')[0])]!,
              partitions: x.split(':')[1]!.split('.').map(Number),
            })),
          };
        });
        const got = outcome(() => {
          const byIndex = new Map<string, string[]>();
          for (const [id, tps] of uniformAssign(members, counts)) {
            const parts = new Map<number, number[]>();
            for (const tp of tps)
              parts.set(ids.indexOf(tp.topicId), [
                ...(parts.get(ids.indexOf(tp.topicId)) ?? []),
                tp.partition,
              ]);
            byIndex.set(
              id,
              [...parts].map(([t, ps]) => `${t}:${ps.sort((a, b) => a - b).join('.')}`),
            );
          }
          return byIndex;
        });
        const want = expected({
          ...c,
          a: c.a
            ? Object.fromEntries(
                Object.entries(c.a).map(([id, s]) => [
                  id,
                  list(s)
                    .map(
                      (x) =>
                        `${x.split(':')[0]}:${x
                          .split(':')[1]!
                          .split('.')
                          .map(Number)
                          .sort((a, b) => a - b)
                          .join('.')}`,
                    )
                    .join(' '),
                ]),
              )
            : undefined,
        });
        return JSON.stringify(got) === JSON.stringify(want) ? [] : [i];
      });
      expect(wrong).toEqual([]);
    });
  }
});
