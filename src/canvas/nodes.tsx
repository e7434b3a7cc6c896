// The canvas's node components: small, memoised, fed plain view models (src/store/canvas/).
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo, type CSSProperties } from 'react';
import {
  NO_RACK,
  type ClientData,
  type ClusterNodeData,
  type ReplicaChip,
  type ZoneData,
} from '../store/canvas';
import { selectFaultToleranceWarnings } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { isNodeSelected, useSelectionStore } from '../store/selection';
import { crashNode, healNetwork, isolate, loseZone, powerOnZone, restartNode, shutdownNode } from './actions';
import { ReplicaGlyph } from './glyphs';
import { NodeCountdowns, ProducerCountdowns } from './timers';

export type ClusterFlowNode = Node<ClusterNodeData, 'cluster'>;
export type ZoneFlowNode = Node<ZoneData, 'zone'>;
export type ClientFlowNode = Node<ClientData, 'client'>;

/** One hidden handle each way at the centre: edges are drawn centre to centre, clipped to the cards. */
const CentreHandles = memo(function CentreHandles() {
  return (
    <>
      <Handle type="source" position={Position.Top} className="centre-handle" isConnectable={false} />
      <Handle type="target" position={Position.Top} className="centre-handle" isConnectable={false} />
    </>
  );
});

const Chip = memo(function Chip({ chip }: { chip: ReplicaChip }) {
  const leo = Math.min(1, chip.logEndOffset / chip.scale);
  const hw = Math.min(1, chip.highWatermark / chip.scale);
  return (
    <li className={`chip chip--${chip.role}`} title={chip.label}>
      <span className="chip-body" role="img" aria-label={chip.label}>
        <ReplicaGlyph role={chip.role} />
        <span className="chip-name">{chip.partition}</span>
        <span className="chip-bar" aria-hidden="true">
          <span className="chip-leo" style={{ width: `${leo * 100}%` }} />
          <span className="chip-hw" style={{ width: `${hw * 100}%` }} />
        </span>
      </span>
    </li>
  );
});

/** Replicas grouped by topic: the topic's name once, then one chip per partition number. */
function ChipsByTopic({ brokerId, chips }: { brokerId: number; chips: ReplicaChip[] }) {
  const topics = [...new Set(chips.map((chip) => chip.topic))];
  // The ⚠ of a topic without fault tolerance; a string, so a card re-renders only when it changes.
  const atRisk = useSimulationStore((state) =>
    selectFaultToleranceWarnings(state.snapshot)
      .filter((w) => topics.includes(w.topic))
      .map((w) => `${w.topic}\u0000${w.text}`)
      .join('\u0001'),
  );
  const riskText = new Map(
    atRisk
      .split('\u0001')
      .filter(Boolean)
      .map((entry) => entry.split('\u0000') as [string, string]),
  );
  return (
    <div className="replicas" role="group" aria-label={`Replicas on broker ${brokerId}`}>
      {topics.map((topic) => {
        const own = chips.filter((chip) => chip.topic === topic);
        // The card's height counts rows of chips, not topics: topics of one or two chips share a row.
        const few = topics.length > 1 && own.length <= 2;
        return (
          <div
            key={topic}
            className={`topic-replicas${few ? ' topic-replicas--few' : ''}`}
            style={few ? ({ '--chips': own.length } as CSSProperties) : undefined}
          >
            {riskText.has(topic) ? (
              <span className="topic-name topic-name--risk" title={riskText.get(topic)}>
                <span aria-hidden="true">⚠ </span>
                {topic}
                <span className="visually-hidden"> (no fault tolerance)</span>
              </span>
            ) : (
              <span className="topic-name">{topic}</span>
            )}
            <ul className="chips">
              {own.map((chip) => (
                <Chip key={chip.key} chip={chip} />
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

function Counts({ counts }: { counts: NonNullable<ClusterNodeData['broker']>['counts'] }) {
  const items = [
    ['leader', counts.leader, 'leaders'],
    ['insync', counts.insync, 'in-sync followers'],
    ['outofsync', counts.outofsync, 'out-of-sync followers'],
    ['elr', counts.elr, 'ELR'],
    ['offline', counts.offline, 'offline'],
  ] as const;
  return (
    <ul className="counts">
      {items
        .filter(([role, n]) => n > 0 || role === 'leader')
        .map(([role, n, words]) => (
          <li key={role} className={`count count--${role}`} title={`${n} ${words}`}>
            <ReplicaGlyph role={role} />
            <span>{n}</span>
            <span className="visually-hidden"> {words}</span>
          </li>
        ))}
    </ul>
  );
}

/**
 * Each badge's words alone; a shorter form when a card carries more than one or is compact (a large
 * cluster's 150 px cards); the shortest when a compact card carries several, so that they share one
 * row and push nothing out of the card (a fenced broker cut off by a split: FENCED ✂ CUT).
 */
function Badges({ data }: { data: ClusterNodeData }) {
  const badges: [kind: string, full: string, short: string, tiny: string][] = [];
  if (data.state === 'crashed') badges.push(['crashed', 'CRASHED', 'CRASHED', 'CRASHED']);
  if (data.state === 'stopped') badges.push(['stopped', 'STOPPED', 'STOPPED', 'STOPPED']);
  if (data.state === 'running' && data.broker?.fenced) badges.push(['fenced', 'FENCED', 'FENCED', 'FENCED']);
  if (data.state === 'running' && data.broker?.shuttingDown)
    badges.push(['stopping', 'SHUTTING DOWN', 'STOPPING', 'STOPPING']);
  if (data.cut === 'isolated') badges.push(['cut', '✂ CUT OFF', '✂ CUT OFF', '✂ CUT']);
  if (data.cut === 'partial') badges.push(['cut', '✂ LINKS CUT', '✂ LINKS', '✂ LINKS']);
  if (data.controller?.active) badges.push(['active', 'ACTIVE CONTROLLER', '★ ACTIVE', '★ ACTIVE']);
  if (badges.length === 0) return null;
  const several = badges.length > 1;
  const form = several ? (data.compact ? 3 : 2) : data.compact ? 2 : 1;
  return (
    <div className={`badges${several ? ' badges--several' : ''}`} aria-hidden="true">
      {badges.map((badge) => (
        <span key={badge[0] + badge[1]} className={`badge badge--${badge[0]}`} title={badge[1]}>
          {badge[form]}
        </span>
      ))}
    </div>
  );
}

function NodeActions({
  id,
  state,
  side,
}: {
  id: number;
  state: ClusterNodeData['state'];
  side: NonNullable<ClusterNodeData['actionsAt']>;
}) {
  const down = state !== 'running';
  return (
    <div
      className={`node-actions node-actions--${side} nodrag nopan`}
      role="toolbar"
      aria-label={`Actions for node ${id}`}
      aria-orientation={side === 'left' || side === 'right' ? 'vertical' : 'horizontal'}
    >
      <button type="button" onClick={() => crashNode(id)} disabled={down} aria-label={`Crash node ${id}`}>
        Crash <kbd>C</kbd>
      </button>
      <button
        type="button"
        onClick={() => restartNode(id)}
        disabled={!down}
        aria-label={`Restart node ${id}`}
      >
        Restart <kbd>R</kbd>
      </button>
      <button
        type="button"
        onClick={() => shutdownNode(id)}
        disabled={down}
        aria-label={`Shut down node ${id}`}
      >
        Shut down <kbd>S</kbd>
      </button>
      <button type="button" onClick={() => isolate([id], `Node ${id}`)} aria-label={`Isolate node ${id}`}>
        Isolate <kbd>I</kbd>
      </button>
    </div>
  );
}

/**
 * A node of a cluster of hundreds of brokers, as a tile: its id large, what is wrong with it as
 * glyphs (✕ down, ⊘ fenced, ⏻ shutting down, ✂ cut off, ★ active controller), and its counts
 * (★ partitions it leads, ⚠ its replicas out of sync or offline). Its full sentence is the node's
 * accessible name, and the Inspector has the rest.
 */
function Tile({ data, selected }: { data: ClusterNodeData; selected: boolean }) {
  const { broker, controller } = data;
  let glyphs = '';
  if (data.state !== 'running') glyphs += '✕';
  else if (broker?.fenced) glyphs += '⊘';
  if (data.state === 'running' && broker?.shuttingDown) glyphs += '⏻';
  if (data.cut !== 'none') glyphs += '✂';
  if (controller?.active) glyphs += '★';
  const atRisk = broker ? broker.counts.outofsync + broker.counts.offline : 0;
  return (
    <div
      className={[
        'card',
        'card--tile',
        broker ? 'card--broker' : 'card--controller',
        `card--${data.state}`,
        broker?.fenced && data.state === 'running' ? 'card--fenced' : '',
        data.cut !== 'none' ? `card--cut-${data.cut}` : '',
      ].join(' ')}
      title={data.label}
    >
      <CentreHandles />
      <div className="tile-head" aria-hidden="true">
        <span className="tile-id">{broker ? data.id : `C${data.id}`}</span>
        {glyphs && <span className="tile-glyphs">{glyphs}</span>}
      </div>
      <div className="tile-counts" aria-hidden="true">
        {broker ? (
          <>
            <span className="tile-count--leader">★{broker.counts.leader}</span>
            {atRisk > 0 && <span className="tile-count--risk">⚠{atRisk}</span>}
          </>
        ) : (
          controller && <span>{controller.voterState}</span>
        )}
      </div>
      {data.state !== 'running' && (
        <svg className="crossed" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
          <path d="M4 4L96 96M96 4L4 96" />
        </svg>
      )}
      {selected && <NodeActions id={data.id} state={data.state} side={data.actionsAt ?? 'below'} />}
    </div>
  );
}

export const ClusterNode = memo(function ClusterNode({ data }: NodeProps<ClusterFlowNode>) {
  const selected = useSelectionStore((s) => isNodeSelected(s.selected, data.id));
  if (data.tile) return <Tile data={data} selected={selected} />;
  const { broker, controller } = data;
  const title = broker
    ? controller
      ? `Broker + controller ${data.id}`
      : `Broker ${data.id}`
    : `Controller ${data.id}`;
  return (
    <div
      className={[
        'card',
        broker ? 'card--broker' : 'card--controller',
        `card--${data.state}`,
        broker?.fenced && data.state === 'running' ? 'card--fenced' : '',
        data.cut !== 'none' ? `card--cut-${data.cut}` : '',
        data.compact ? 'card--compact' : '',
      ].join(' ')}
    >
      <CentreHandles />
      <div className="card-head">
        <span className="card-title">{title}</span>
        <Badges data={data} />
      </div>
      {controller && (
        <dl className="facts">
          <div>
            <dt>quorum</dt>
            <dd className={`voter voter--${controller.voterState}`}>{controller.voterState}</dd>
          </div>
          <div>
            <dt>epoch</dt>
            <dd>{controller.epoch}</dd>
          </div>
          <div>
            <dt title="Metadata log end offset">meta</dt>
            <dd>{controller.logEndOffset}</dd>
          </div>
        </dl>
      )}
      {/* A compact card (150 × 96 px) keeps one line of facts, the broker epoch left to the
          Inspector. A fenced broker says why instead of its facts (and, on a full card, instead of
          the internal topics' count): the card's height is fixed by the layout, so the reason takes
          their room and pushes no chip out of the card. */}
      {broker && !broker.fencedReason && (
        <dl className="facts">
          {!data.compact && (
            <div>
              <dt title="Broker epoch">epoch</dt>
              <dd>{broker.brokerEpoch < 0 ? '—' : broker.brokerEpoch}</dd>
            </div>
          )}
          <div>
            <dt title="Metadata lag: quorum high watermark minus the broker's applied metadata offset">
              meta lag
            </dt>
            <dd className={broker.metadataLag ? 'lagging' : undefined}>{broker.metadataLag ?? '—'}</dd>
          </div>
        </dl>
      )}
      {broker?.fencedReason && (
        <p className="fenced-reason" title={broker.fencedReason.text}>
          {data.compact ? broker.fencedReason.short : broker.fencedReason.text}
        </p>
      )}
      {broker && broker.chips && <ChipsByTopic brokerId={data.id} chips={broker.chips} />}
      {broker && !broker.chips && <Counts counts={broker.counts} />}
      {broker && broker.chips && broker.hiddenReplicas > 0 && !broker.fencedReason && (
        <p className="more">+{broker.hiddenReplicas} more (internal topics)</p>
      )}
      {data.state !== 'running' && (
        <svg className="crossed" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
          <path d="M4 4L96 96M96 4L4 96" />
        </svg>
      )}
      <NodeCountdowns id={data.id} compact={data.compact} />
      {selected && <NodeActions id={data.id} state={data.state} side={data.actionsAt ?? 'below'} />}
    </div>
  );
});

export const ZoneNode = memo(function ZoneNode({ data }: NodeProps<ZoneFlowNode>) {
  return (
    <div className={`zone${data.isolated ? ' zone--isolated' : ''}`}>
      <CentreHandles />
      <div className="zone-head">
        <span className="zone-title" title={data.rack}>
          {data.rack}
        </span>
        {data.dark && <span className="badge badge--dark">✕ NO POWER</span>}
        {data.isolated && <span className="badge badge--cut">✂ ISOLATED</span>}
        <span className="zone-actions">
          {data.isolated ? (
            <button type="button" className="nodrag" onClick={() => healNetwork()} aria-label="Heal network">
              Heal
            </button>
          ) : (
            !data.dark && (
              <button
                type="button"
                className="nodrag"
                onClick={() => isolate(data.nodeIds, `Zone ${data.rack}`)}
                aria-label={`Isolate zone ${data.rack}`}
                title="Network only: its nodes keep running and clients still reach them"
              >
                Isolate
              </button>
            )
          )}
          {data.rack !== NO_RACK &&
            (data.dark ? (
              <button
                type="button"
                className="nodrag"
                onClick={() => void powerOnZone(data.rack)}
                aria-label={`Power on zone ${data.rack}`}
              >
                Power on
              </button>
            ) : (
              <button
                type="button"
                className="nodrag"
                onClick={() => void loseZone(data.rack)}
                aria-label={`Lose zone ${data.rack}`}
                title="Power: every node of the zone crashes at once"
              >
                Lose zone
              </button>
            ))}
        </span>
      </div>
    </div>
  );
});

export const ClientNode = memo(function ClientNode({ data }: NodeProps<ClientFlowNode>) {
  return (
    <div className={`card card--client card--${data.clientKind}`}>
      <CentreHandles />
      <div className="card-head">
        <span className="card-title">
          <span aria-hidden="true">
            {data.clientKind === 'producer' ? '⇢ ' : data.clientKind === 'standby' ? '⇉ ' : '⇠ '}
          </span>
          {data.title}
        </span>
      </div>
      <ul className="client-lines">
        {data.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {data.clientKind === 'producer' && <ProducerCountdowns id={data.id} />}
    </div>
  );
});

/** Defined once at module scope, as React Flow requires for stable renders. */
export const nodeTypes = { cluster: ClusterNode, zone: ZoneNode, client: ClientNode };
