import { describe, expect, it } from 'vitest';
import { chooseActionsSide } from './actionsPlacement';

const card = (x: number, y: number) => ({ x, y, width: 210, height: 120 });

describe("where the selected node's buttons float", () => {
  it('goes below a card with room below it', () => {
    expect(chooseActionsSide(card(0, 0), [], [], null)).toBe('below');
  });

  it('does not cover the title of the card below; goes beside it where there is room', () => {
    const below = card(0, 130);
    expect(chooseActionsSide(card(0, 0), [below, card(250, 0), card(250, 130)], [], null)).toBe('left');
  });

  it('stays in view', () => {
    const view = { x: -10, y: -10, width: 500, height: 300 };
    expect(chooseActionsSide(card(0, 0), [card(0, 130)], [], view)).toBe('right');
  });
});
