// A lesson, step by step: the narration with its Kafka term, a prediction to make before the
// simulator runs, the learner's task (or "Do it for me"), and the reveal.
import { useEffect, useRef } from 'react';
import {
  choose,
  currentLesson,
  currentStep,
  doTask,
  installLessonDriver,
  nextStep,
  previousStep,
  startLesson,
  stopLesson,
  useLessonStore,
  type LessonState,
} from './lessonStore';
import { DEFAULT_WAIT_MS, lessons, type Lesson } from '../scenario/lessons';
import './lessons.css';

/** The lesson library, or the lesson being played. */
export function LessonPanel() {
  const state = useLessonStore();
  useEffect(installLessonDriver, []);
  // The reveal can grow below the fold of the dock: bring it into view when it appears.
  const revealRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.phase === 'done') showReveal(revealRef.current);
  }, [state.phase, state.stepIndex]);
  // A new step, or the summary, is read from its top, wherever the last reveal left the dock.
  const finished = state.phase === 'finished';
  useEffect(() => {
    document.querySelector('.lesson-dock')?.scrollTo({ top: 0 });
  }, [state.lessonId, state.stepIndex, finished]);
  const lesson = currentLesson(state);
  const step = currentStep(state);

  if (!lesson || !step)
    return (
      <section className="lesson-panel" aria-label="Lessons">
        <h2>Lessons</h2>
        <ol>
          {lessons.map((l) => (
            <li key={l.id}>
              <button type="button" onClick={() => startLesson(l.id)}>
                {l.title}
              </button>
              {state.completed.includes(l.id) && <span aria-label="completed"> ✓</span>}
              <br />
              <small>{l.summary}</small>
            </li>
          ))}
        </ol>
      </section>
    );

  if (state.phase === 'finished') return <LessonSummary lesson={lesson} state={state} />;

  const p = step.predict;
  const right = p && state.choice === p.answer;
  return (
    <section className="lesson-panel" aria-label={`Lesson: ${lesson.title}`}>
      <p>
        <small>
          Lesson {lesson.number} · step {state.stepIndex + 1} of {lesson.steps.length}
        </small>
      </p>
      <h2>{step.title}</h2>
      <p className="term">Kafka term: {step.term}</p>
      <p className="lesson-text">
        {/* The clock holds for the prediction: what the text tells happens once it is made. */}
        {p && state.phase === 'predict' && (step.commands || step.task) && (
          <strong className="lesson-then">Once you have answered: </strong>
        )}
        {step.text}
      </p>
      {p && (
        <fieldset>
          <legend>Predict: {p.question}</legend>
          <ol className="lesson-choices">
            {p.choices.map((choice, i) => (
              <li key={choice}>
                <button
                  type="button"
                  aria-pressed={state.choice === i}
                  disabled={state.phase !== 'predict'}
                  onClick={() => choose(i)}
                >
                  {i + 1}. {choice}
                </button>
              </li>
            ))}
          </ol>
          {state.phase === 'predict' && (
            <p className="lesson-hold">
              <span aria-hidden="true">‖</span> The clock waits for your prediction.
            </p>
          )}
        </fieldset>
      )}
      {step.task && state.phase === 'task' && (
        <p className="lesson-task">
          Your turn: {step.task.text}
          <br />
          <small>
            <span aria-hidden="true">‖</span> The clock waits until you act.
          </small>
        </p>
      )}
      {state.phase === 'running' && <p role="status">Watching the cluster…</p>}
      {state.lastError && <p role="alert">The simulator refused: {state.lastError}</p>}
      {state.phase === 'timedOut' && (
        <p role="alert" aria-label="Step not completed">
          The cluster did not reach what this step waits for within{' '}
          {((step.waitMs ?? DEFAULT_WAIT_MS) / 1000).toFixed(0)} simulated seconds (something else was changed
          meanwhile, or the task was done differently). Try the step again, or go on.
        </p>
      )}
      {state.phase === 'done' && (
        <div role="status" aria-label="Reveal" ref={revealRef}>
          {p && (
            <p className={`lesson-reveal ${right ? 'right' : 'wrong'}`}>
              <span aria-hidden="true">{right ? '✓ ' : '✗ '}</span>
              {right ? 'Right' : `Not quite: the answer is ${p.answer + 1}`}. {p.explanation}
              {state.answerHeld === false &&
                ' (The simulator did something else this time: look at the event log.)'}
            </p>
          )}
          {step.reveal && <p>{step.reveal}</p>}
          <p className="lesson-hold">
            <span aria-hidden="true">‖</span> Paused on this moment; Next resumes the clock.
          </p>
        </div>
      )}
      {/* The step's buttons stay in view at the foot of the dock however long the reveal grows. */}
      <div className="lesson-actions" role="group" aria-label="Step controls">
        {step.task && state.phase === 'task' && (
          <button type="button" onClick={doTask}>
            Do it for me
          </button>
        )}
        {(state.phase === 'done' || state.phase === 'timedOut') && (
          <button type="button" className="lesson-next" onClick={nextStep}>
            {state.stepIndex + 1 < lesson.steps.length ? 'Next step' : 'Finish the lesson'}
          </button>
        )}
        <button
          type="button"
          onClick={previousStep}
          disabled={
            state.stepIndex <= state.firstStepIndex && state.phase !== 'done' && state.phase !== 'timedOut'
          }
        >
          {state.phase === 'timedOut' ? 'Try this step again' : 'Back'}
        </button>
        <button type="button" onClick={stopLesson}>
          Leave the lesson
        </button>
      </div>
    </section>
  );
}

/** Scrolls the dock so that the reveal shows above the step's buttons, its first line kept in view. */
function showReveal(reveal: HTMLElement | null) {
  const box = reveal?.closest<HTMLElement>('.lesson-dock, .side');
  if (!reveal || !box) return;
  const boxTop = box.getBoundingClientRect().top;
  const footer = reveal.parentElement?.querySelector('.lesson-actions');
  const limit = (footer ?? box).getBoundingClientRect()[footer ? 'top' : 'bottom'] - 8;
  const { top, bottom } = reveal.getBoundingClientRect();
  const hidden = bottom - limit;
  if (hidden > 0) box.scrollTop += Math.min(hidden, Math.max(0, top - boxTop - 8));
}

/** The end of a lesson: what it taught, and the learner's predictions. */
function LessonSummary({ lesson, state }: { lesson: Lesson; state: LessonState }) {
  const asked = lesson.steps.filter((s) => s.predict).length;
  const rightCount = state.results.filter((r) => r.right).length;
  return (
    <section className="lesson-panel" aria-label={`Lesson summary: ${lesson.title}`}>
      <p>
        <small>Lesson {lesson.number} · done</small>
      </p>
      <h2>{lesson.title}: what you saw</h2>
      <p className="lesson-text">{lesson.summary}</p>
      <p>Concepts: {lesson.concepts.join(', ')}.</p>
      <h3>Your predictions</h3>
      <p>
        {rightCount} of {state.results.length} right
        {state.results.length < asked ? ` (${asked} asked; some were skipped or done again)` : ''}.
      </p>
      <ol className="lesson-results">
        {state.results.map((r) => {
          const step = lesson.steps[r.stepIndex];
          const p = step?.predict;
          // A result is recorded for a predict step only.
          if (!step || !p) return null;
          return (
            <li key={r.stepIndex}>
              <span aria-hidden="true">{r.right ? '✓ ' : '✗ '}</span>
              <strong>{step.title}</strong>: {p.question} You chose {r.choice + 1}. {p.choices[r.choice]}
              {r.right ? ' — right.' : ` — the answer: ${p.answer + 1}. ${p.choices[p.answer]}.`}
            </li>
          );
        })}
      </ol>
      <p>
        <button type="button" onClick={stopLesson}>
          Back to the lessons
        </button>{' '}
        <button type="button" onClick={() => startLesson(lesson.id)}>
          Play it again
        </button>
      </p>
    </section>
  );
}

/** Presenter mode's caption: the step's narration in large type, at the top of the lesson dock. */
export function PresenterCaption() {
  const state = useLessonStore();
  const step = currentStep(state);
  if (!step) return null;
  return (
    <div className="presenter-caption" role="region" aria-label="Narration" aria-live="polite">
      <span className="term">{step.term}</span> — {step.text}
    </div>
  );
}
