// A consume-transform-produce stream processor (Kafka Streams, simplified): start it with a
// processing.guarantee, see what it processed, wrote and committed, and close or crash it.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { nextFreeId, type ProcessorView } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, KafkaText, SelectField, TextField, splitErrors, useCommand } from './form';

const GUARANTEES = ['at_least_once', 'exactly_once_v2'] as const;
type Guarantee = (typeof GUARANTEES)[number];
const FIELDS = ['processorId', 'groupId', 'inputTopic', 'outputTopic', 'processingGuarantee'];

const STATE_GLYPH: Record<ProcessorView['state'], string> = {
  running: '▶',
  stopping: '…',
  stopped: '■',
  crashed: '✕',
  fenced: '⊘',
  failed: '⚠',
};

export function ProcessorControls() {
  const processors = useSimulationStore((state) => state.snapshot?.clients.processors);
  const topicViews = useSimulationStore((state) => state.snapshot?.topics);
  const topics = useMemo(
    () => (topicViews ?? []).filter((t) => !t.name.startsWith('__')).map((t) => t.name),
    [topicViews],
  );
  const id = useId();
  const command = useCommand();
  const [processorId, setProcessorId] = useState('');
  const [groupId, setGroupId] = useState('');
  const [inputTopic, setInputTopic] = useState('');
  const [outputTopic, setOutputTopic] = useState('');
  const [guarantee, setGuarantee] = useState<Guarantee>('exactly_once_v2');
  const list = processors ?? [];
  const idValue =
    processorId ||
    nextFreeId(
      'processor-',
      list.map((p) => p.processorId),
    );
  const groupValue = groupId || `${idValue}-group`;
  const inputValue = inputTopic || (topics[0] ?? '');
  const outputValue = outputTopic || (topics.find((t) => t !== inputValue) ?? '');
  const { at, formErrors } = splitErrors(command.error, FIELDS);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void command
      .run(
        {
          type: 'startProcessor',
          processorId: idValue,
          groupId: groupValue,
          inputTopic: inputValue,
          outputTopic: outputValue,
          processingGuarantee: guarantee,
        },
        `${idValue} reads ${inputValue} in group ${groupValue} and writes each record, transformed, to ${outputValue} (processing.guarantee=${guarantee}).`,
      )
      .then((ok) => ok && setProcessorId(''));
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Stream processor</h3>
      <p className="hint">
        Consume, transform, produce. at_least_once commits offsets after writing (a crash writes some outputs
        twice); exactly_once_v2 writes the outputs and the offsets in one transaction.
      </p>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <TextField
            id={`${id}-processorId`}
            label="Processor id"
            value={idValue}
            onValue={setProcessorId}
            errors={at('processorId')}
          />
          <TextField
            id={`${id}-groupId`}
            label="Group id (application.id)"
            value={groupValue}
            onValue={setGroupId}
            errors={at('groupId')}
          />
          <SelectField
            id={`${id}-input`}
            label="Input topic"
            value={inputValue}
            onValue={setInputTopic}
            options={topics}
            errors={at('inputTopic')}
          />
          <SelectField
            id={`${id}-output`}
            label="Output topic"
            value={outputValue}
            onValue={setOutputTopic}
            options={topics}
            hint={topics.length < 2 ? 'Create a second topic for the outputs.' : undefined}
            errors={at('outputTopic')}
          />
          <SelectField
            id={`${id}-guarantee`}
            label="processing.guarantee"
            value={guarantee}
            onValue={setGuarantee}
            options={GUARANTEES}
            hint="exactly_once_v2 reads with isolation.level=read_committed and commits every 100 ms; at_least_once every 30 s."
            errors={at('processingGuarantee')}
          />
        </div>
        <div className="form-row">
          <button
            type="submit"
            disabled={command.busy || inputValue === '' || outputValue === '' || groupValue === ''}
          >
            Start processor
          </button>
        </div>
      </form>
      <h4>Processors</h4>
      {list.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="client-list">
          {list.map((proc) => (
            <li key={proc.processorId}>
              <span>
                <span aria-hidden="true">{STATE_GLYPH[proc.state]} </span>
                {proc.processorId} ({proc.processingGuarantee}): {proc.state}, {proc.inputTopic} →{' '}
                {proc.outputTopic}; {proc.processed} processed, {proc.outputs} written, {proc.commits}{' '}
                commit(s), {proc.aborts} abort(s). Read as read_committed,{' '}
                {proc.outputExactlyOnce.exactlyOnce} of {proc.outputExactlyOnce.inputs} committed input(s)
                have exactly one output
                {proc.outputExactlyOnce.duplicated > 0
                  ? `, ${proc.outputExactlyOnce.duplicated} have several`
                  : ''}
                {proc.outputExactlyOnce.none > 0 ? `, ${proc.outputExactlyOnce.none} have none` : ''}.
              </span>
              {proc.error && (
                <span>
                  {' '}
                  <KafkaText text={proc.error} />
                </span>
              )}
              {(proc.state === 'running' || proc.state === 'stopping') && (
                <>
                  <button
                    type="button"
                    disabled={command.busy}
                    onClick={() =>
                      void command.run(
                        { type: 'stopProcessor', processorId: proc.processorId, graceful: true },
                        `${proc.processorId}: close(). It commits what it processed, then leaves group ${proc.groupId}.`,
                      )
                    }
                  >
                    Stop {proc.processorId}
                  </button>
                  <button
                    type="button"
                    disabled={command.busy}
                    onClick={() =>
                      void command.run(
                        { type: 'stopProcessor', processorId: proc.processorId, graceful: false },
                        `${proc.processorId} crashed: nothing is committed or aborted.`,
                      )
                    }
                  >
                    Crash {proc.processorId}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <CommandOutcome state={command} errors={formErrors} />
    </section>
  );
}
