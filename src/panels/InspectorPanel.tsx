// The Inspector tab: every field of the selected broker, controller, partition or client, the
// node's lifecycle actions, and for a partition its replica logs, ledger and lost records.
import { useEffect, useId, useMemo, useRef } from 'react';
import {
  ledgerRow,
  parseSelectionValue,
  selectInspectables,
  selectInspector,
  selectionValue,
  type LedgerEntry,
  type NodeView,
} from '../store/panels';
import { parsePartitionId, useSelectionStore, type Selection } from '../store/selection';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, KafkaText, useCommand } from './form';
import { useLedger } from './useLedger';
import { usePanelsUi } from './uiStore';
import { useRecordLogStore } from '../store/recordLog';

/**
 * A button that stays focusable when it cannot act (aria-disabled), so the keyboard focus is not
 * thrown back to the page when a node's state changes under it.
 */
function ActionButton({
  enabled,
  onRun,
  children,
}: {
  enabled: boolean;
  onRun: () => void;
  children: string;
}) {
  return (
    <button type="button" aria-disabled={!enabled} onClick={() => enabled && onRun()}>
      {children}
    </button>
  );
}

function NodeActions({ node }: { node: NodeView }) {
  const command = useCommand();
  const running = node.state === 'running';
  return (
    <div className="inspector-actions" role="group" aria-label={`Actions on node ${node.id}`}>
      <p>
        State: <strong>{node.state}</strong>
        {node.roles.includes('broker') && <>, {node.fenced ? 'fenced' : 'unfenced'}</>}
        {node.shuttingDown && ', in controlled shutdown'}
      </p>
      <div className="form-row">
        <ActionButton
          enabled={running && !command.busy}
          onRun={() =>
            void command.run(
              { type: 'crashNode', nodeId: node.id },
              `Node ${node.id} crashed (NodeCrashed): the controller fences it after broker.session.timeout.ms.`,
            )
          }
        >
          {`Crash node ${node.id}`}
        </ActionButton>
        <ActionButton
          enabled={!running && !command.busy}
          onRun={() =>
            void command.run(
              { type: 'restartNode', nodeId: node.id },
              `Node ${node.id} restarts (NodeRestarted): it re-registers and catches up.`,
            )
          }
        >
          {`Restart node ${node.id}`}
        </ActionButton>
        <ActionButton
          enabled={running && !node.shuttingDown && !command.busy}
          onRun={() =>
            void command.run(
              { type: 'shutdownNode', nodeId: node.id },
              `Node ${node.id} begins a controlled shutdown: its leaderships move first.`,
            )
          }
        >
          {`Controlled shutdown of node ${node.id}`}
        </ActionButton>
      </div>
      <CommandOutcome state={command} />
    </div>
  );
}

/** Opens the record's partition in the Partition log tab, with the record's journey. */
function openJourney(entry: LedgerEntry) {
  const log = useRecordLogStore.getState();
  if (entry.partition >= 0) log.openLog(`${entry.topic}-${entry.partition}`);
  log.showJourney(entry.recordId);
  usePanelsUi.getState().setTab('log');
}

function LedgerTable({ caption, entries }: { caption: string; entries: LedgerEntry[] }) {
  const id = useId();
  if (entries.length === 0) return null;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
      <table className="ledger-table">
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Record</th>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const row = ledgerRow(entry);
            return (
              <tr key={row.recordId} className={`status-${row.status}`}>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Journey of record ${row.recordId}`}
                    onClick={() => openJourney(entry)}
                  >
                    #{row.recordId}
                  </button>
                  <br />
                  <span className="hint">
                    {entry.producerId}, acks={row.acks}
                  </span>
                </td>
                <td>{row.key}</td>
                <td>{row.value}</td>
                <td>
                  <KafkaText text={row.outcome} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function PartitionDetails({ selection }: { selection: Selection }) {
  const tp = parsePartitionId(selection.id);
  const partition = useSimulationStore((state) =>
    tp
      ? state.snapshot?.partitions.find((p) => p.topic === tp.topic && p.partition === tp.partition)
      : undefined,
  );
  const { reply } = useLedger(tp ? { topic: tp.topic, partition: tp.partition, limit: 20 } : null);
  if (!tp || !partition) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => {
          useRecordLogStore.getState().openLog(String(selection.id));
          usePanelsUi.getState().setTab('log');
        }}
      >
        Open the log of {String(selection.id)}
      </button>
      <table className="replica-logs">
        <caption>Replica logs of {String(selection.id)}</caption>
        <thead>
          <tr>
            <th scope="col">Broker</th>
            <th scope="col">Role</th>
            <th scope="col">Log start offset</th>
            <th scope="col">
              <abbr title="Log end offset">LEO</abbr>
            </th>
            <th scope="col">
              <abbr title="High watermark">HW</abbr>
            </th>
          </tr>
        </thead>
        <tbody>
          {partition.replicaLogs.map((log) => (
            <tr key={log.brokerId}>
              <td>{log.brokerId}</td>
              <td>
                {[
                  log.brokerId === partition.leader ? 'leader' : 'follower',
                  partition.isr.includes(log.brokerId) ? 'in ISR' : 'not in ISR',
                  ...(partition.elr.includes(log.brokerId) ? ['in ELR'] : []),
                ].join(', ')}
              </td>
              <td>{log.logStartOffset}</td>
              <td>{log.logEndOffset}</td>
              <td>{log.highWatermark}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Ledger</h3>
      {reply === null ? (
        <p>Loading the ledger…</p>
      ) : reply.entries.length === 0 ? (
        <p>No record was produced to this partition yet.</p>
      ) : (
        <LedgerTable
          caption={`Latest ${reply.entries.length} of ${reply.matched} record(s) sent to ${String(selection.id)}, newest first`}
          entries={[...reply.entries].reverse()}
        />
      )}
      {reply?.failedDropped ? <FailedDropped count={reply.failedDropped} across /> : null}
      {reply?.acks0Dropped ? <Acks0Dropped count={reply.acks0Dropped} across /> : null}
      <h3>Lost acknowledged records</h3>
      {reply === null ? null : reply.lostAcknowledged.length === 0 ? (
        <p>None: every acknowledged record is still in the log at its offset.</p>
      ) : (
        <div className="data-loss" role="status">
          <p>
            <strong>⚠ Data loss:</strong> {reply.lostAcknowledged.length} acknowledged record(s) are no longer
            in the partition at their offset.
          </p>
          <LedgerTable caption="Lost acknowledged records" entries={reply.lostAcknowledged} />
        </div>
      )}
    </>
  );
}

/** The ledger keeps each producer's newest failed sends (kernel/memoryBounds.ts): say that older ones are gone. */
function FailedDropped({ count, across }: { count: number; across?: boolean }) {
  return (
    <p className="hint">
      {count.toLocaleString('en')} older failed send(s){across ? ' (of every producer)' : ''} are no longer
      kept: the simulator keeps only each producer's newest failed sends. A simulator limit, not Kafka's.
    </p>
  );
}

/** The ledger keeps each producer's newest acks=0 sends too (they have no offset for retention to prune by). */
function Acks0Dropped({ count, across }: { count: number; across?: boolean }) {
  return (
    <p className="hint">
      {count.toLocaleString('en')} older acks=0 send(s){across ? ' (of every producer)' : ''} are no longer
      kept: the simulator keeps only each producer's newest acks=0 sends. A simulator limit, not Kafka's.
    </p>
  );
}

function ProducerDetails({ producerId }: { producerId: string }) {
  const { reply } = useLedger({ producerId, limit: 20 });
  if (!reply || reply.entries.length === 0) return null;
  return (
    <>
      <LedgerTable
        caption={`Latest ${reply.entries.length} of ${reply.matched} record(s) sent by ${producerId}, newest first`}
        entries={[...reply.entries].reverse()}
      />
      {reply.failedDropped ? <FailedDropped count={reply.failedDropped} /> : null}
      {reply.acks0Dropped ? <Acks0Dropped count={reply.acks0Dropped} /> : null}
    </>
  );
}

export function InspectorPanel() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const selected = useSelectionStore((state) => state.selected);
  const select = useSelectionStore((state) => state.select);
  const focusRequest = usePanelsUi((state) => state.focusInspector);
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  // The choices change only when nodes, partitions or clients come and go, not with every snapshot.
  const choicesKey = snapshot
    ? [
        snapshot.nodes.map((n) => `${n.id}:${n.roles.join('+')}`).join(','),
        snapshot.partitions.length,
        snapshot.topics.map((t) => t.name).join(','),
        snapshot.clients.producers.map((p) => p.id).join(','),
        snapshot.clients.consumers.map((c) => c.id).join(','),
        snapshot.clients.groups.map((g) => g.groupId).join(','),
      ].join('|')
    : '';
  // Keyed on choicesKey alone on purpose: the snapshot of the render where it changed is enough.
  const groups = useMemo(() => selectInspectables(snapshot), [choicesKey]);
  const view = useMemo(() => selectInspector(snapshot, selected), [snapshot, selected]);
  const node =
    selected && (selected.kind === 'broker' || selected.kind === 'controller')
      ? snapshot?.nodes.find((n) => String(n.id) === String(selected.id))
      : undefined;
  const producerId =
    selected &&
    (selected.kind === 'producer' || selected.kind === 'client') &&
    snapshot?.clients.producers.some((p) => p.id === selected.id)
      ? String(selected.id)
      : null;

  const handled = useRef(0);
  useEffect(() => {
    if (focusRequest !== handled.current) {
      handled.current = focusRequest;
      heading.current?.focus();
    }
  }, [focusRequest]);

  const value = selected ? selectionValue(selected) : '';
  const known = groups.some((g) => g.options.some((o) => o.value === value));

  return (
    <div className="inspector-panel">
      <h2 ref={heading} tabIndex={-1}>
        Inspector{view ? `: ${view.title}` : ''}
      </h2>
      <div className="form-row">
        <label htmlFor={`${id}-what`}>Inspect</label>
        <select
          id={`${id}-what`}
          value={known ? value : ''}
          onChange={(e) => select(parseSelectionValue(e.target.value))}
        >
          <option value="">Nothing selected</option>
          {groups.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      {!selected && <p>Select a node, partition or client on the canvas, in the dashboard or here.</p>}
      {selected && !view && <p>{String(selected.id)} is not in the cluster now.</p>}
      {node && <NodeActions key={node.id} node={node} />}
      {view && (
        <dl className="field-list">
          {view.fields.map((field) => (
            <div key={field.label}>
              <dt>{field.label}</dt>
              <dd>{field.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {selected?.kind === 'partition' && <PartitionDetails key={String(selected.id)} selection={selected} />}
      {producerId && <ProducerDetails key={producerId} producerId={producerId} />}
    </div>
  );
}
