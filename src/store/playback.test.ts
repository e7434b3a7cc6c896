import { describe, expect, it } from 'vitest';
import { NO_SPEED_NOTE, nextSpeedNote, type SpeedNote } from './playback';

/** The note after the worker's figures, one a second, at the requested speed. */
function after(speed: number, figures: number[], playing = true): SpeedNote[] {
  const notes: SpeedNote[] = [];
  let note = NO_SPEED_NOTE;
  for (const f of figures) notes.push((note = nextSpeedNote(note, speed, f, playing)));
  return notes;
}

describe('the speed note', () => {
  it('stays away while the run keeps up within 5% of the requested speed', () => {
    expect(after(100, [99, 96, 95.5, 100, 97]).map((n) => n.shown)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(after(1000, [1000, 960, 990]).some((n) => n.shown)).toBe(false);
  });

  it('appears below 95% of the requested speed, with the two-second average as its figure', () => {
    const notes = after(1000, [900, 800]);
    expect(notes.map((n) => n.shown)).toEqual([true, true]);
    expect(notes[1]!.achieved).toBe(850);
    // 92× of 100× asked (the healthy default scene, measured in the page) was not flagged at the old 80% threshold.
    expect(after(100, [92]).at(-1)!.shown).toBe(true);
  });

  it('does not blink when the run hovers around 95%', () => {
    // A run alternating between 93% and 97% of 100×: the average stays under 98%, so once shown it stays.
    const shown = after(100, [93, 97, 93, 97, 93, 97, 93]).map((n) => n.shown);
    expect(shown).toEqual([true, true, true, true, true, true, true]);
  });

  it('goes once the run is back at 98% of the requested speed over two seconds', () => {
    const shown = after(100, [90, 99, 99, 100]).map((n) => n.shown);
    // 90 then 99: a mean of 94.5, still shown; 99 and 99: gone.
    expect(shown).toEqual([true, true, false, false]);
  });

  it('says nothing while paused, and starts its average over', () => {
    let note = nextSpeedNote(NO_SPEED_NOTE, 100, 50, true);
    expect(note.shown).toBe(true);
    note = nextSpeedNote(note, 100, 0, false);
    expect(note).toEqual(NO_SPEED_NOTE);
    note = nextSpeedNote(note, 100, 99, true);
    expect(note).toMatchObject({ shown: false, achieved: 99 });
  });
});
