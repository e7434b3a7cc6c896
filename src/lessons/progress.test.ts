import { describe, expect, it } from 'vitest';
import { loadProgress, parseViewMode, PROGRESS_KEY, saveProgress } from './progress';

function memory() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    items,
  };
}

describe('lesson progress', () => {
  it('round-trips through storage', () => {
    const store = memory();
    saveProgress({ completed: ['isr'], current: { lessonId: 'acks-and-min-isr', stepIndex: 2 } }, store);
    expect(loadProgress(store)).toEqual({
      completed: ['isr'],
      current: { lessonId: 'acks-and-min-isr', stepIndex: 2 },
    });
  });

  it('ignores a damaged record', () => {
    const store = memory();
    store.setItem(PROGRESS_KEY, '{not json');
    expect(loadProgress(store)).toEqual({ completed: [], current: null });
    store.setItem(PROGRESS_KEY, JSON.stringify({ completed: [1, 'isr'], current: { lessonId: 3 } }));
    expect(loadProgress(store)).toEqual({ completed: ['isr'], current: null });
  });
});

describe('view modes', () => {
  it('reads ?present, ?embed and ?lesson', () => {
    expect(parseViewMode('?present&lesson=isr')).toEqual({
      present: true,
      embed: false,
      lessonId: 'isr',
      stepIndex: 0,
    });
    expect(parseViewMode('?embed')).toEqual({ present: false, embed: true, lessonId: null, stepIndex: 0 });
    expect(parseViewMode('?lesson=isr&step=3').stepIndex).toBe(2);
    for (const bad of ['0', '-1', '2.5', 'x', ''])
      expect(parseViewMode(`?lesson=isr&step=${bad}`).stepIndex, bad).toBe(0);
  });
});
