// The Terminal tab: Kafka's own command-line tools typed against the simulated cluster, answered in
// Kafka's format (src/sim/tools, docs/cli.md). Up and Down walk the lines typed before; Tab
// completes a tool, an option, a topic or a group (and moves the focus on when nothing fits).
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { completeLine } from '../scenario/cli';
import { useSimulationStore } from '../store/simulation';
import { historyStep, useTerminalStore, type TerminalEntry } from '../store/terminal';

const BOOTSTRAP = '--bootstrap-server localhost:9092';

/** Lines to start from: each fills the command line, to edit or run. */
const EXAMPLES: { label: string; line: string }[] = [
  { label: 'Describe every topic', line: `kafka-topics.sh ${BOOTSTRAP} --describe` },
  {
    label: 'Under-replicated partitions',
    line: `kafka-topics.sh ${BOOTSTRAP} --describe --under-replicated-partitions`,
  },
  { label: 'List consumer groups', line: `kafka-consumer-groups.sh ${BOOTSTRAP} --list` },
  { label: 'Quorum status', line: `kafka-metadata-quorum.sh ${BOOTSTRAP} describe --status` },
  { label: 'Quorum replication', line: `kafka-metadata-quorum.sh ${BOOTSTRAP} describe --replication` },
  {
    label: 'Create a topic',
    line: `kafka-topics.sh ${BOOTSTRAP} --create --topic payments --partitions 3 --replication-factor 3`,
  },
];

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (an insecure origin, a test browser): select the text for Ctrl+C instead.
    return false;
  }
}

function Entry({ entry, wrap }: { entry: TerminalEntry; wrap: boolean }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'selected'>('idle');
  const pre = useRef<HTMLPreElement>(null);
  const outputId = useId();
  useEffect(() => {
    if (copied === 'idle') return;
    const t = setTimeout(() => setCopied('idle'), 2000);
    return () => clearTimeout(t);
  }, [copied]);
  const text = `$ ${entry.line}\n${entry.output ?? ''}`;
  return (
    <li className={`terminal-entry${entry.ok ? '' : ' terminal-failed'}`}>
      <div className="terminal-command">
        <code>
          <span aria-hidden="true">$ </span>
          {entry.line}
        </code>
        <button
          type="button"
          className="terminal-copy"
          aria-describedby={outputId}
          disabled={entry.output === null}
          onClick={async () => {
            if (await copyText(text)) return setCopied('copied');
            const selection = window.getSelection();
            if (pre.current && selection) {
              selection.selectAllChildren(pre.current);
              setCopied('selected');
            }
          }}
        >
          {copied === 'copied' ? 'Copied' : copied === 'selected' ? 'Selected: press Ctrl+C' : 'Copy'}
        </button>
      </div>
      <pre
        ref={pre}
        id={outputId}
        tabIndex={0}
        aria-label={`Output of ${entry.line}`}
        className={wrap ? 'terminal-text terminal-wrap' : 'terminal-text'}
      >
        {entry.output === null ? 'Running…' : entry.output === '' ? '(no output)' : entry.output}
      </pre>
      <p className="terminal-status">
        {entry.output === null
          ? null
          : entry.ok
            ? entry.recorded
              ? '✓ done: it changed the cluster, so the session records it'
              : '✓ done'
            : '✗ the tool refused (exit status 1)'}
      </p>
    </li>
  );
}

export function Terminal() {
  const entries = useTerminalStore((s) => s.entries);
  const history = useTerminalStore((s) => s.history);
  const run = useTerminalStore((s) => s.run);
  const clear = useTerminalStore((s) => s.clear);
  const topics = useSimulationStore((s) => s.snapshot?.topics);
  const groups = useSimulationStore((s) => s.snapshot?.clients.groups);
  const [line, setLine] = useState('');
  const [draft, setDraft] = useState('');
  const [index, setIndex] = useState(history.length);
  const [candidates, setCandidates] = useState<string[]>([]);
  // The side column is narrow: long lines wrap unless the learner wants Kafka's alignment with a scroll bar.
  const [wrap, setWrap] = useState(true);
  const input = useRef<HTMLInputElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const candidatesId = useId();

  useEffect(() => setIndex(history.length), [history.length]);
  // The newest answer in view, as in a terminal.
  const lastOutput = entries.at(-1)?.output;
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
    // Keep the command line in view below the answer (the side column scrolls as a whole).
    input.current?.scrollIntoView?.({ block: 'nearest' });
  }, [entries.length, lastOutput]);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && history.length > 0) {
      event.preventDefault();
      const next = historyStep(history.length, index, event.key);
      if (index === history.length) setDraft(line);
      setIndex(next);
      setLine(next === history.length ? draft : (history[next] ?? ''));
      setCandidates([]);
    } else if (event.key === 'Tab' && !event.shiftKey && line.trim() !== '') {
      const completion = completeLine(line, {
        topics: topics?.map((t) => t.name),
        groups: groups?.map((g) => g.groupId),
      });
      // Nothing fits: Tab moves the focus on, as everywhere else on the page.
      if (completion.candidates.length === 0) return;
      event.preventDefault();
      setLine(completion.line);
      setCandidates(completion.candidates.length > 1 ? completion.candidates : []);
    } else if (event.key === 'Escape') {
      setCandidates([]);
    }
  }

  return (
    <div className="terminal-panel">
      <h2>Terminal</h2>
      <p>
        Kafka&apos;s own tools against this cluster, in their exact format. A line that changes the cluster is
        recorded like any other action.
      </p>
      <details className="terminal-examples">
        <summary>Examples</summary>
        <ul>
          {EXAMPLES.map((e) => (
            <li key={e.label}>
              <button
                type="button"
                onClick={() => {
                  setLine(e.line);
                  input.current?.focus();
                }}
              >
                {e.label}
              </button>
            </li>
          ))}
        </ul>
      </details>
      <div
        ref={log}
        className="terminal-log"
        role="log"
        aria-label="Terminal output"
        hidden={entries.length === 0}
      >
        <ol>
          {entries.map((e) => (
            <Entry key={e.id} entry={e} wrap={wrap} />
          ))}
        </ol>
      </div>
      <form
        className="terminal-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (line.trim() === '') return;
          void run(line);
          setLine('');
          setDraft('');
          setCandidates([]);
        }}
      >
        <label htmlFor="terminal-line">Command line</label>
        <div className="terminal-input-row">
          <span aria-hidden="true" className="terminal-prompt">
            $
          </span>
          <input
            id="terminal-line"
            ref={input}
            type="text"
            value={line}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            aria-describedby={candidates.length ? `${hintId} ${candidatesId}` : hintId}
            onChange={(event) => {
              setLine(event.target.value);
              setCandidates([]);
            }}
            onKeyDown={onKeyDown}
          />
          <button type="submit">Run</button>
        </div>
        <p id={hintId} className="terminal-hint">
          Enter runs the line; Up and Down recall earlier lines; Tab completes tools, options, topics and
          groups.
        </p>
        {candidates.length > 0 && (
          <p id={candidatesId} className="terminal-candidates" aria-live="polite">
            Completions: {candidates.join('  ')}
          </p>
        )}
      </form>
      <div className="terminal-actions">
        <label>
          <input type="checkbox" checked={wrap} onChange={(event) => setWrap(event.target.checked)} /> Wrap
          long lines
        </label>
        <button type="button" onClick={clear} disabled={entries.length === 0}>
          Clear the screen
        </button>
      </div>
    </div>
  );
}
