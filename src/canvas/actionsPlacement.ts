// Where the selected node's buttons float: on the side of its card where they hide nothing.
// Each side is scored by what the toolbar would cover there (other cards, titles above all, and
// the zone headers with their Isolate buttons) and by how much of it would fall out of view.

export type ActionsSide = 'below' | 'right' | 'left' | 'above';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The toolbar's size in canvas units (it scales with the zoom): a row below or above, a column beside. */
export const ACTIONS_ROW = { width: 330, height: 44 };
export const ACTIONS_COLUMN = { width: 112, height: 150 };
const GAP = 6;
/** A card's title strip: covering it costs more than covering the card's body. */
const TITLE_HEIGHT = 28;

const SIDES: readonly ActionsSide[] = ['below', 'right', 'left', 'above'];

export function actionsRect(card: Rect, side: ActionsSide): Rect {
  switch (side) {
    case 'below':
      return { x: card.x, y: card.y + card.height + GAP, ...ACTIONS_ROW };
    case 'above':
      return { x: card.x, y: card.y - GAP - ACTIONS_ROW.height, ...ACTIONS_ROW };
    case 'right':
      return { x: card.x + card.width + GAP, y: card.y, ...ACTIONS_COLUMN };
    case 'left':
      return { x: card.x - GAP - ACTIONS_COLUMN.width, y: card.y, ...ACTIONS_COLUMN };
  }
}

const overlap = (a: Rect, b: Rect): number =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/**
 * The side whose toolbar covers least: `cards` are the other cards, `headers` the zone headers,
 * `view` the part of the canvas in view (null when unknown). Ties go to the order below, right,
 * left, above.
 */
export function chooseActionsSide(
  card: Rect,
  cards: readonly Rect[],
  headers: readonly Rect[],
  view: Rect | null,
): ActionsSide {
  let best: ActionsSide = 'below';
  let bestCost = Infinity;
  for (const side of SIDES) {
    const r = actionsRect(card, side);
    let cost = 0;
    for (const other of cards) {
      cost += overlap(r, other);
      cost += 4 * overlap(r, { ...other, height: Math.min(TITLE_HEIGHT, other.height) });
    }
    for (const header of headers) cost += 3 * overlap(r, header);
    if (view) cost += 2 * (r.width * r.height - overlap(r, view));
    if (cost < bestCost) {
      best = side;
      bestCost = cost;
    }
  }
  return best;
}
