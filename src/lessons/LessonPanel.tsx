// A lesson, step by step: the narration with its Kafka term, a prediction to make before the
// simulator runs, the learner's task (or "Do it for me"), and the reveal.
import { useEffect } from 'react';
import { lessons } from './library';
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
} from './lessonStore';
import './lessons.css';

/** The lesson library, or the lesson being played. */
export function LessonPanel() {
  const state = useLessonStore();
  useEffect(installLessonDriver, []);
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

  const p = step.predict;
  return (
    <section className="lesson-panel" aria-label={`Lesson: ${lesson.title}`}>
      <p>
        <small>
          Lesson {lesson.number} · step {state.stepIndex + 1} of {lesson.steps.length}
        </small>
      </p>
      <h2>{step.title}</h2>
      <p className="term">Kafka term: {step.term}</p>
      <p className="lesson-text">{step.text}</p>
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
        </fieldset>
      )}
      {step.task && state.phase === 'task' && <p className="lesson-task">Your turn: {step.task.text}</p>}
      {state.phase === 'running' && <p role="status">Watching the cluster…</p>}
      {state.lastError && <p role="alert">The simulator refused: {state.lastError}</p>}
      {state.phase === 'done' && (
        <div role="status" aria-label="Reveal">
          {p && (
            <p className={`lesson-reveal ${state.choice === p.answer ? 'right' : 'wrong'}`}>
              {state.choice === p.answer ? 'Right' : `Not quite: the answer is ${p.answer + 1}`}.{' '}
              {p.explanation}
              {state.answerHeld === false &&
                ' (The simulator did something else this time: look at the event log.)'}
            </p>
          )}
          {step.reveal && <p>{step.reveal}</p>}
        </div>
      )}
      {/* The step's buttons stay in view at the foot of the dock however long the reveal grows. */}
      <div className="lesson-actions" role="group" aria-label="Step controls">
        {step.task && state.phase === 'task' && (
          <button type="button" onClick={doTask}>
            Do it for me
          </button>
        )}
        {state.phase === 'done' && (
          <button type="button" className="lesson-next" onClick={nextStep}>
            {state.stepIndex + 1 < lesson.steps.length ? 'Next step' : 'Finish the lesson'}
          </button>
        )}
        <button type="button" onClick={previousStep}>
          Back
        </button>
        <button type="button" onClick={stopLesson}>
          Leave the lesson
        </button>
      </div>
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
