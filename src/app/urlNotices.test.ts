import { describe, expect, it } from 'vitest';
import { startedInstead, urlNotices } from './urlNotices';

const presets = ['default', 'large'];
const lessons = ['partitions-and-keys', 'broker-failure'];

describe('what the page says about its address', () => {
  it('says nothing when the address asks for what exists', () => {
    expect(urlNotices('?preset=large&lesson=broker-failure', presets, lessons)).toEqual([]);
    expect(urlNotices('', presets, lessons)).toEqual([]);
  });

  it('names an unknown preset and the valid ones', () => {
    expect(urlNotices('?preset=huge', presets, lessons)).toEqual([
      'There is no preset “huge”: the default cluster runs instead. The presets are default, large.',
    ]);
  });

  it('names an unknown lesson and the valid ones', () => {
    expect(urlNotices('?lesson=nope&present', presets, lessons)).toEqual([
      'There is no lesson “nope”: no lesson was started. The lessons are partitions-and-keys, broker-failure.',
    ]);
  });

  it('says which cluster a fresh tab started when its link could not be opened', () => {
    expect(startedInstead('', presets)).toBe('started the default cluster instead');
    expect(startedInstead('?preset=large', presets)).toBe('started the preset “large” instead');
    expect(startedInstead('?preset=huge', presets)).toBe('started the default cluster instead');
  });
});
