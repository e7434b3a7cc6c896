// The lessons as data (the library, its predicates), the judge of a step and the headless runner:
// pure, so that the worker judges each step on the engine and CI plays every lesson in Node.
export { lessons, lessonById } from './library';
export { runLesson, type LessonRun, type RunOptions, type StepRun } from './runner';
export { CHECK_EVERY_MS, StepJudge, stepCommands, type JudgedSim, type Verdict } from './judge';
export {
  commandsFor,
  DEFAULT_WAIT_MS,
  type Lesson,
  type LessonStep,
  type LessonView,
  type Prediction,
} from './types';
