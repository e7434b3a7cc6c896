import { describe, expect, it } from 'vitest';
import { bindingFor, KEYMAP, nextSpeed } from './keys';

const PAGE = ['lesson', 'free', 'anywhere'] as const;

describe('the keymap', () => {
  it('lets a clicker move a lesson in a lesson, and drive the clock outside one', () => {
    expect(bindingFor('PageDown', true, PAGE)?.action).toBe('lessonForward');
    expect(bindingFor('PageUp', true, PAGE)?.action).toBe('lessonBack');
    expect(bindingFor(' ', true, PAGE)?.action).toBe('lessonForward');
    expect(bindingFor('PageDown', false, PAGE)?.action).toBe('forwardEvent');
    expect(bindingFor('ArrowLeft', false, PAGE)?.action).toBe('backEvent');
    expect(bindingFor(' ', false, PAGE)?.action).toBe('playPause');
  });

  it('gives the blank-screen keys (B and period), speed and presenter mode the same meaning everywhere', () => {
    for (const inLesson of [true, false]) {
      expect(bindingFor('b', inLesson, PAGE)?.action).toBe('playPause');
      expect(bindingFor('B', inLesson, PAGE)?.action).toBe('playPause');
      expect(bindingFor('.', inLesson, PAGE)?.action).toBe('playPause');
      expect(bindingFor('+', inLesson, PAGE)?.action).toBe('faster');
      expect(bindingFor('-', inLesson, PAGE)?.action).toBe('slower');
      expect(bindingFor('P', inLesson, PAGE)?.action).toBe('presenter');
    }
  });

  it('leaves the node keys to the canvas and unknown keys alone', () => {
    expect(bindingFor('c', false, PAGE)).toBeNull();
    expect(bindingFor('x', true, PAGE)).toBeNull();
    expect(bindingFor('c', false, ['node'])?.action).toBe('nodeCrash');
  });

  it('never binds one key twice in the same situation', () => {
    for (const inLesson of [true, false]) {
      const seen = new Map<string, string>();
      for (const b of KEYMAP) {
        if (b.scope === 'node' || (b.scope === 'lesson' && !inLesson) || (b.scope === 'free' && inLesson))
          continue;
        for (const key of b.keys) {
          expect(seen.get(key), `${key} in ${inLesson ? 'a lesson' : 'free play'}`).toBeUndefined();
          seen.set(key, b.action);
        }
      }
    }
  });
});

describe('the speed keys', () => {
  it('step through the speed list and stop at its ends', () => {
    expect(nextSpeed(10, 1)).toBe(50);
    expect(nextSpeed(50, 1)).toBe(100);
    expect(nextSpeed(10, -1)).toBe(5);
    expect(nextSpeed(1000, 1)).toBe(1000);
    expect(nextSpeed(0.1, -1)).toBe(0.1);
    // A speed between two options goes to the neighbour in that direction.
    expect(nextSpeed(3, 1)).toBe(5);
    expect(nextSpeed(3, -1)).toBe(2);
  });
});
