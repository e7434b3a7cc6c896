// Lessons are data: a scenario and a list of steps. Each step narrates, names the Kafka term, may
// run commands, may ask the learner to predict, and advances when its condition holds on what the
// simulator shows (a pure predicate). The same data drives the page and the headless runner.
import type { Command, Scenario, SimEvent, Snapshot } from '..';
import type { CliRun } from '../../sim/types';

/** What a step's predicates see: the cluster now, the event log, and the cluster when the step began. */
export interface LessonView {
  snapshot: Snapshot;
  events: readonly SimEvent[];
  /** The snapshot taken as the step began, before its commands ran. */
  start: Snapshot;
  /** Lines of Kafka's tools run since the step began (the Terminal tab, a task's `cli` commands). */
  cliLines?: readonly CliRun[];
}

export type Condition = (view: LessonView) => boolean;

/** Commands, or a function of the cluster as the step begins (e.g. "crash the active controller"). */
export type StepCommands = Command[] | ((start: Snapshot) => Command[]);

export interface Prediction {
  question: string;
  choices: string[];
  /** Index of the one correct choice. */
  answer: number;
  /** Holds once the step's condition holds, if and only if the simulator did what `answer` says. */
  answerHolds: Condition;
  /** Shown with the reveal: why the answer is what it is. */
  explanation: string;
}

export interface LessonStep {
  id: string;
  title: string;
  /** The Kafka term the step teaches, as Kafka spells it. */
  term: string;
  /** The narration, in plain words (the presenter's caption). */
  text: string;
  /** Run by the simulator as the step begins (after the learner's prediction, if any). */
  commands?: StepCommands;
  /**
   * Something the learner does in the UI. `commands` are what that action amounts to: the
   * "Do it for me" button and the headless runner issue them.
   */
  task?: { text: string; commands: StepCommands };
  predict?: Prediction;
  /** The step is complete when this holds. */
  until: Condition;
  /** Virtual milliseconds the condition may take, from the step's start (default 60 s). */
  waitMs?: number;
  /** Shown once the condition holds. */
  reveal?: string;
}

export interface Lesson {
  id: string;
  /** Position in the library, from 1. */
  number: number;
  title: string;
  summary: string;
  /** The Kafka concepts the lesson covers (the terms of its steps and more). */
  concepts: string[];
  scenario: Scenario;
  steps: LessonStep[];
}

export const DEFAULT_WAIT_MS = 60_000;

export function commandsFor(commands: StepCommands | undefined, start: Snapshot): Command[] {
  if (!commands) return [];
  return typeof commands === 'function' ? commands(start) : commands;
}
