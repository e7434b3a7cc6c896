import { describe, expect, it } from 'vitest';
import { formatSimTime } from './selectors';

describe('formatSimTime', () => {
  it('shows seconds with one decimal, never ahead of the clock', () => {
    expect(formatSimTime(0)).toBe('0.0 s');
    expect(formatSimTime(12_345)).toBe('12.3 s');
    expect(formatSimTime(12_399)).toBe('12.3 s');
  });
});
