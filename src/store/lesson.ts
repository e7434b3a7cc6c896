// The lesson the worker plays, as it last reported it (src/worker/lessonPlayer.ts). The lesson UI
// reads it and sends the learner's actions back; the worker alone decides when a step is done.
import { create } from 'zustand';
import type { LessonAction, LessonProgress } from '../worker/protocol';

export type { LessonProgress, LessonStatus } from '../worker/protocol';
import { send } from './port';

export const useLessonProgressStore = create<{ progress: LessonProgress | null }>(() => ({
  progress: null,
}));

export function receiveLessonState(progress: LessonProgress | null): void {
  useLessonProgressStore.setState({ progress });
}

export function sendLessonAction(action: LessonAction): void {
  send({ type: 'lesson', action });
}
