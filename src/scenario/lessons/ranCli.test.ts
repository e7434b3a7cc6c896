import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../sim';
import { defaultScenario } from '../presets';
import { StepJudge } from './judge';
import { ranCli } from './predicates';
import type { Lesson } from './types';

const step = {
  id: 'describe',
  title: 'Ask Kafka',
  term: 'under-replicated partition',
  text: 'Run kafka-topics.sh --describe --under-replicated-partitions.',
  until: (view: Parameters<typeof ranCli>[0]) =>
    ranCli(view, 'kafka-topics.sh', ['--describe', '--under-replicated-partitions']),
};
const lesson: Lesson = {
  id: 'cli',
  number: 1,
  title: 't',
  summary: 's',
  concepts: [],
  scenario: defaultScenario,
  steps: [step],
};

describe('ranCli, a lesson step that asks for a command line', () => {
  it('holds once the line was run, whatever the order of its options or the bootstrap server', () => {
    const sim = createSimulation(defaultScenario);
    sim.advance(5000);
    const judge = new StepJudge(lesson, 0, sim);
    judge.startDeadline(sim.nowMs);
    sim.apply({ type: 'cli', line: 'kafka-topics.sh --bootstrap-server localhost:9092 --list' });
    sim.advance(200);
    expect(judge.check(sim)).toBeNull();
    sim.apply({
      type: 'cli',
      line: 'bin/kafka-topics.sh --under-replicated-partitions --bootstrap-server b:9092 --describe',
    });
    sim.advance(200);
    expect(judge.check(sim)).toMatchObject({ kind: 'done' });
  });

  it('does not count a line the tool refused, or one run before the step began', () => {
    const sim = createSimulation(defaultScenario);
    sim.advance(5000);
    sim.apply({
      type: 'cli',
      line: 'kafka-topics.sh --bootstrap-server x:9092 --describe --under-replicated-partitions',
    });
    sim.advance(100);
    const judge = new StepJudge(lesson, 0, sim);
    judge.startDeadline(sim.nowMs);
    // No --bootstrap-server: the tool refuses.
    sim.apply({ type: 'cli', line: 'kafka-topics.sh --describe --under-replicated-partitions' });
    sim.advance(200);
    expect(judge.check(sim)).toBeNull();
  });
});
