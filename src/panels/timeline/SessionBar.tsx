// Copy link, export and import (button or drag-and-drop) of the whole session, and whether an
// opened session's state hash matches the one it was shared with.
import { useEffect, useRef, useState } from 'react';
import {
  describeHashCheck,
  LIMITS,
  sessionFileSizeIssues,
  sessionFragment,
  sessionToJson,
} from '../../scenario';
import { decodeFile } from '../../store/fileDecoder';
import {
  dismissOpenIssues,
  openSession,
  reportOpenIssues,
  requestSession,
  RESTART_SOURCE,
  useTimelineStore,
} from '../../store/timeline';
import { usePanelsUi } from '../uiStore';
import './timeline.css';

/** The page address without its fragment, where a shared link points. */
function pageAddress(): string {
  return `${location.origin}${location.pathname}${location.search}`;
}

/**
 * Opens a dropped or chosen file as a session, or lists its problems. Its size is checked before
 * anything is read; reading and parsing happen in the decoder's worker, off the main thread.
 */
export async function importSessionFile(file: File): Promise<void> {
  const tooBig = sessionFileSizeIssues(file.name, file.size);
  if (tooBig.length > 0) return reportOpenIssues(file.name, tooBig);
  const result = await decodeFile(file);
  if (result.ok) openSession(result.session, file.name);
  else reportOpenIssues(file.name, result.issues);
}

export function SessionBar() {
  const [link, setLink] = useState('');
  const [note, setNote] = useState('');
  const [dragging, setDragging] = useState(false);
  const loaded = useTimelineStore((s) => s.loaded);
  const fileInput = useRef<HTMLInputElement>(null);

  async function copyLink() {
    const session = await requestSession();
    const url = `${pageAddress()}${sessionFragment(session)}`;
    if (url.length > LIMITS.maxUrlLength) {
      reportOpenIssues('link', [
        {
          path: 'link',
          message: `this session makes a ${url.length}-character link; the limit is ${LIMITS.maxUrlLength}: export it as a file instead`,
        },
      ]);
      return;
    }
    setLink(url);
    try {
      await navigator.clipboard.writeText(url);
      setNote(`Link copied (state hash ${session.stateHash}).`);
    } catch {
      setNote('Copy the link from the field.');
    }
  }

  async function exportFile() {
    const session = await requestSession();
    const blob = new Blob([sessionToJson(session)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `kafka-lab-session-${Math.round(session.positionMs / 1000)}s.json`;
    a.click();
    URL.revokeObjectURL(a.href);
  }

  useEffect(() => {
    const over = (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      setDragging(true);
    };
    const leave = () => setDragging(false);
    const drop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      setDragging(false);
      if (!file) return;
      event.preventDefault();
      void importSessionFile(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  const mismatch = loaded && loaded.check.status !== 'match' && loaded.check.status !== 'no-hash';
  return (
    <div className="session-bar" role="group" aria-label="Session">
      <button type="button" onClick={() => void copyLink()}>
        Copy link
      </button>
      <button type="button" onClick={() => void exportFile()}>
        Export
      </button>
      <button type="button" onClick={() => fileInput.current?.click()}>
        Import
      </button>
      <button
        type="button"
        data-opens="import-layout"
        onClick={() => usePanelsUi.getState().setImportOpen(true)}
        title="Paste kafka-topics.sh --describe output of a real cluster"
      >
        Import layout
      </button>
      <input
        ref={fileInput}
        type="file"
        accept="application/json,.json"
        aria-label="Import a session or scenario file"
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void importSessionFile(file);
          event.target.value = '';
        }}
      />
      {link && (
        <input
          type="text"
          readOnly
          value={link}
          aria-label="Shareable link"
          onFocus={(e) => e.target.select()}
        />
      )}
      {note && <span role="status">{note}</span>}
      {loaded && loaded.source !== RESTART_SOURCE && (
        <p
          className={`session-status${mismatch ? ' mismatch' : ''}`}
          role="status"
          aria-label="Opened session"
        >
          Opened from {loaded.source}:{' '}
          {describeHashCheck(loaded.check, loaded.source === 'link' ? 'link' : 'file')}
          {loaded.refused.length > 0 &&
            ` ${loaded.refused.length} recorded action(s) were refused: ${loaded.refused.join('; ')}`}
        </p>
      )}
      {dragging && <div className="drop-hint">Drop a session or scenario file to open it</div>}
    </div>
  );
}

/** Problems listed at most: a file can have thousands, and drawing them all would stall the page. */
const MAX_LISTED_ISSUES = 50;

/** The problems of a link or file that could not be opened, and what runs instead. */
export function OpenIssuesPanel() {
  const open = useTimelineStore((s) => s.openIssues);
  if (!open) return null;
  const unlisted = open.issues.length - MAX_LISTED_ISSUES;
  return (
    <div className="open-issues" role="alert" aria-label="Could not open">
      <p>
        <strong>Could not open the {open.source === 'link' ? 'link' : `file ${open.source}`}</strong>:{' '}
        {open.outcome}. {open.issues.length} problem{open.issues.length === 1 ? '' : 's'}:
      </p>
      <ul>
        {open.issues.slice(0, MAX_LISTED_ISSUES).map((issue, i) => (
          <li key={`${i}-${issue.path}`}>
            <code>{issue.path}</code>: {issue.message}
          </li>
        ))}
      </ul>
      {unlisted > 0 && (
        <p>
          The first {MAX_LISTED_ISSUES} are listed; {unlisted} more problem{unlisted === 1 ? '' : 's'} not
          listed.
        </p>
      )}
      <button type="button" onClick={dismissOpenIssues}>
        Dismiss
      </button>
    </div>
  );
}
