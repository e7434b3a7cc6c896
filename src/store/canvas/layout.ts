// Where every card sits: zones in a grid, the nodes of a zone in rows, clients in a row under the
// zones. Depends only on ids, racks and roles, so the cards never move while the cluster runs.
import type { NodeId } from '../../sim/types';
import { groupKey, NO_RACK, nodeKey, producerKey, zoneKey } from './keys';
import type { LayoutNode } from './types';

/** At most this many replica chips on one broker; the rest are counted. */
export const MAX_CHIPS = 12;
export const CHIPS_PER_ROW = 4;

const GAP = 14;
/** Between tiles (a cluster of hundreds of brokers): closer, so the zone stays large on screen. */
const TILE_GAP = 6;
const ZONE_PAD = 14;
// Two rows: the zone's name, then its buttons (Isolate, Lose zone), so the name is never cut.
const ZONE_HEADER = 66;
export const ZONE_GAP = 40;
export const CLIENT_WIDTH = 200;
const CLIENT_GAP = 60;

export interface Sizes {
  width: number;
  brokerHeight: number;
  controllerHeight: number;
}

/** What a full card's replicas take: rows of chips, and topic names above them. */
export interface ChipLines {
  rows: number;
  labels: number;
}

// A full card's chip geometry, as styles.css draws it (.chips, .topic-replicas--few).
const CARD_INNER_WIDTH = 186;
const CHIP_WIDTH = 44;
const CHIP_GAP = 4;
const TOPIC_GAP = 8;
const CHIP_ROW_HEIGHT = 28;
const TOPIC_LABEL_HEIGHT = 15;

/**
 * The lines a broker's chips take, given how many it draws of each topic in order, packed as the
 * card packs them: a topic of one or two chips beside others shares a line while it fits, a larger
 * one takes whole rows of four; each line starts with its topic names.
 */
export function chipLines(perTopic: readonly number[]): ChipLines {
  let rows = 0;
  let labels = 0;
  let open = -1; // the width used on the line of small topics being filled, -1 when none is open
  for (const n of perTopic) {
    const few = perTopic.length > 1 && n <= 2;
    if (!few) {
      rows += Math.ceil(n / CHIPS_PER_ROW);
      labels++;
      open = -1;
      continue;
    }
    const width = n * CHIP_WIDTH + (n - 1) * CHIP_GAP;
    if (open >= 0 && open + TOPIC_GAP + width <= CARD_INNER_WIDTH) open += TOPIC_GAP + width;
    else {
      rows++;
      labels++;
      open = width;
    }
  }
  return { rows, labels };
}

/** The height a full card's chips take, their topic names included beyond the first. */
export function chipLinesHeight({ rows, labels }: ChipLines): number {
  return Math.max(1, rows) * CHIP_ROW_HEIGHT + Math.max(0, labels - 1) * TOPIC_LABEL_HEIGHT;
}

/**
 * Card sizes: full cards fit their chips (`lines`, the most any broker needs; else `maxChips` of one
 * topic); compact cards are small and uniform; tiles smaller still.
 */
export function cardSizes(compact: boolean, maxChips: number, tile = false, lines?: ChipLines): Sizes {
  if (tile) return { width: 72, brokerHeight: 50, controllerHeight: 50 };
  if (compact) return { width: 150, brokerHeight: 96, controllerHeight: 96 };
  const chips = lines ?? { rows: Math.ceil(Math.min(maxChips, MAX_CHIPS) / CHIPS_PER_ROW), labels: 1 };
  return { width: 210, brokerHeight: 84 + chipLinesHeight(chips), controllerHeight: 92 };
}

interface LayoutInput {
  nodes: { id: NodeId; rack: string | null; isBroker: boolean; isController: boolean }[];
  producers: string[];
  groups: string[];
  compact: boolean;
  /** Tiles instead of cards (hundreds of brokers). */
  tile?: boolean;
  maxChips: number;
  /** The chip lines the fullest card needs (a full card of several topics); else from maxChips. */
  chipLines?: ChipLines;
  /** Client card heights by key (they grow with their lines). */
  clientHeights?: Record<string, number>;
}

export interface Layout {
  zones: LayoutNode[];
  nodes: LayoutNode[];
  clients: LayoutNode[];
  /** Every box by key, absolute. */
  byKey: Map<string, LayoutNode>;
}

/**
 * Zones side by side (up to three in a row, else about √zones a row), sorted by name; in each zone the controllers first, then
 * the brokers, by id, in a grid of about √(n/2) columns; clients in a row under the zones.
 * Depends only on ids, racks and roles, so the cards never move while the cluster runs.
 */
export function layoutCluster(input: LayoutInput): Layout {
  const size = cardSizes(input.compact, input.maxChips, input.tile, input.chipLines);
  const gap = input.tile ? TILE_GAP : GAP;
  const racks = [...new Set(input.nodes.map((n) => n.rack ?? NO_RACK))].sort((a, b) =>
    a === NO_RACK ? 1 : b === NO_RACK ? -1 : a < b ? -1 : a > b ? 1 : 0,
  );
  const zoneBoxes: LayoutNode[] = [];
  const nodeBoxes: LayoutNode[] = [];
  const inZone = racks.map((rack) =>
    input.nodes
      .filter((n) => (n.rack ?? NO_RACK) === rack)
      .sort((a, b) => Number(b.isController) - Number(a.isController) || a.id - b.id),
  );
  // Tall narrow zones for a few brokers (cards are wide); square-ish ones for many small cards.
  const columns = Math.max(
    1,
    ...inZone.map((members) => {
      const brokers = members.filter((n) => n.isBroker).length;
      // Tiles are wider rows: a zone of 50 is 11 wide and 5 high, so four zones fill a screen's shape.
      return Math.ceil(Math.sqrt(input.tile ? brokers * 2.2 : input.compact ? brokers : brokers / 2));
    }),
  );
  const zonesPerRow = racks.length <= 3 ? Math.max(1, racks.length) : Math.ceil(Math.sqrt(racks.length));
  const heightOf = (n: LayoutInput['nodes'][number]) =>
    n.isBroker ? size.brokerHeight : size.controllerHeight;
  // Every zone has the same width and height, so the zones line up in a grid.
  const zoneWidth = ZONE_PAD * 2 + columns * size.width + (columns - 1) * gap;
  const zoneContent = inZone.map((members, index) => {
    const controllers = members.filter((n) => !n.isBroker);
    const brokers = members.filter((n) => n.isBroker);
    const places: { node: (typeof members)[number]; x: number; y: number }[] = [];
    let y = ZONE_HEADER;
    // Tiles share their rows: the controllers first, the brokers after them on the same row.
    for (const group of input.tile ? [[...controllers, ...brokers]] : [controllers, brokers]) {
      for (let i = 0; i < group.length; i += columns) {
        const row = group.slice(i, i + columns);
        row.forEach((node, col) => places.push({ node, x: ZONE_PAD + col * (size.width + gap), y }));
        y += Math.max(...row.map(heightOf)) + gap;
      }
    }
    return { rack: racks[index] ?? NO_RACK, places, height: y - gap + ZONE_PAD };
  });
  const zoneHeight = Math.max(...zoneContent.map((z) => z.height), ZONE_HEADER + ZONE_PAD);
  zoneContent.forEach(({ rack, places }, index) => {
    const x = (index % zonesPerRow) * (zoneWidth + ZONE_GAP);
    const y = Math.floor(index / zonesPerRow) * (zoneHeight + ZONE_GAP);
    const key = zoneKey(rack);
    zoneBoxes.push({ key, parent: null, x, y, absX: x, absY: y, width: zoneWidth, height: zoneHeight });
    for (const place of places) {
      nodeBoxes.push({
        key: nodeKey(place.node.id),
        parent: key,
        x: place.x,
        y: place.y,
        absX: x + place.x,
        absY: y + place.y,
        width: size.width,
        height: heightOf(place.node),
      });
    }
  });
  const clusterWidth =
    Math.min(racks.length, zonesPerRow) * (zoneWidth + ZONE_GAP) - (racks.length ? ZONE_GAP : 0);
  // Clients in a row under the zones: producers from the left, consumer groups from the right,
  // so their edges reach the brokers from below without crossing the controllers.
  const clientBoxes: LayoutNode[] = [];
  const rows = Math.max(1, Math.ceil(racks.length / zonesPerRow));
  const clientsY = rows * (zoneHeight + ZONE_GAP) - ZONE_GAP + CLIENT_GAP;
  const perRow = Math.max(
    1,
    Math.floor((Math.max(clusterWidth, 2 * CLIENT_WIDTH) + GAP) / (CLIENT_WIDTH + GAP)),
  );
  const place = (keys: string[], fromRight: boolean) => {
    let rowY = clientsY;
    for (let i = 0; i < keys.length; i += perRow) {
      const row = keys.slice(i, i + perRow);
      row.forEach((key, j) => {
        const x = fromRight
          ? Math.max(clusterWidth, CLIENT_WIDTH) - CLIENT_WIDTH - j * (CLIENT_WIDTH + GAP)
          : j * (CLIENT_WIDTH + GAP);
        const height = input.clientHeights?.[key] ?? 90;
        clientBoxes.push({ key, parent: null, x, y: rowY, absX: x, absY: rowY, width: CLIENT_WIDTH, height });
      });
      rowY += Math.max(...row.map((key) => input.clientHeights?.[key] ?? 90)) + GAP;
    }
    return rowY;
  };
  const producerKeys = input.producers.map(producerKey);
  const groupKeys = input.groups.map(groupKey);
  // Producers and groups share the row when they fit side by side, else groups go under producers.
  if (producerKeys.length + groupKeys.length <= perRow) {
    place(producerKeys, false);
    place(groupKeys, true);
  } else {
    const below = place(producerKeys, false);
    const shift = below - clientsY;
    const before = clientBoxes.length;
    place(groupKeys, true);
    for (const box of clientBoxes.slice(before)) {
      box.y += shift;
      box.absY += shift;
    }
  }
  const byKey = new Map([...zoneBoxes, ...nodeBoxes, ...clientBoxes].map((box) => [box.key, box]));
  return { zones: zoneBoxes, nodes: nodeBoxes, clients: clientBoxes, byKey };
}
