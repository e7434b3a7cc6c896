// Lessons for src/app to place: the panel (library and the lesson being played), presenter mode's
// caption and keys, the dock that shows lessons in embed and presenter modes, and the data.
export { LessonPanel, PresenterCaption, useLessonKeys } from './LessonPanel';
export { LessonDock, LessonToggles } from './LessonDock';
export { lessons, lessonById } from './library';
export { runLesson, type LessonRun } from './runner';
export { startLesson, useLessonStore } from './lessonStore';
export { parseViewMode, type ViewMode } from './progress';
export type { Lesson, LessonStep, LessonView, Prediction } from './types';
