// The side panels as ARIA tabs (WAI-ARIA Authoring Practices, "Tabs with automatic activation"):
// one tab stop for the tab list, arrow keys, Home and End move between tabs.
import { startTransition, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useSelectionStore } from '../store/selection';
import { ControlsPanel } from './ControlsPanel';
import { DashboardPanel } from './DashboardPanel';
import { EventLogPanel } from './EventLogPanel';
import { ImportLayoutDialog } from './ImportLayoutDialog';
import { InspectorPanel } from './InspectorPanel';
import { MessagesPanel } from './MessagesPanel';
import { PartitionLogPanel } from './PartitionLogPanel';
import { RegionsPanel } from './RegionsPanel';
import { Terminal } from './Terminal';
import { ComparePanel } from './timeline/ComparePanel';
import { PANEL_TABS, usePanelsUi, type PanelTab } from './uiStore';
import { VitalsPanel } from './vitals/VitalsPanel';
import { WhatIfPanel } from './WhatIfPanel';
import './panels.css';

const tabId = (tab: PanelTab) => `side-tab-${tab}`;
const panelId = (tab: PanelTab) => `side-panel-${tab}`;

function PanelContent({ tab }: { tab: PanelTab }) {
  switch (tab) {
    case 'controls':
      return <ControlsPanel />;
    case 'inspector':
      return <InspectorPanel />;
    case 'log':
      return <PartitionLogPanel />;
    case 'messages':
      return <MessagesPanel />;
    case 'dashboard':
      return <DashboardPanel />;
    case 'events':
      return <EventLogPanel />;
    case 'vitals':
      return <VitalsPanel />;
    case 'regions':
      return <RegionsPanel />;
    case 'compare':
      return <ComparePanel />;
    case 'terminal':
      return <Terminal />;
    case 'whatif':
      return <WhatIfPanel />;
  }
}

/**
 * `value`, once the page has painted a frame since it changed, then in a transition. Not
 * useDeferredValue: its render starts at once in the scheduler's 5-ms slices, and Chromium then
 * drew no frame until the whole deferred render (about 100 ms for the large preset's Dashboard) had
 * committed, so the click that chose the tab waited for the panel it opened.
 */
function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (Object.is(shown, value)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A timeout set in a frame callback runs once that frame is painted.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setShown(value)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [value, shown]);
  return shown;
}

export function SidePanels() {
  const tab = usePanelsUi((state) => state.tab);
  // The content of a newly chosen tab mounts after the tab is painted as chosen, in an interruptible
  // render: a heavy panel (the Dashboard of 2,000 partitions) fills in after without holding that
  // paint (a click answered within 100 ms).
  const shown = useAfterPaint(tab);
  const setTab = usePanelsUi((state) => state.setTab);
  const selected = useSelectionStore((state) => state.selected);
  const tabs = useRef(new Map<PanelTab, HTMLButtonElement>());
  const importOpen = usePanelsUi((state) => state.importOpen);

  // Selecting something (on the canvas or in a panel) shows it in the inspector.
  const previous = useRef(selected);
  useEffect(() => {
    if (selected !== null && selected !== previous.current) setTab('inspector');
    previous.current = selected;
  }, [selected, setTab]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = PANEL_TABS.findIndex((t) => t.id === tab);
    const last = PANEL_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % PANEL_TABS.length
        : event.key === 'ArrowLeft'
          ? (index + last) % PANEL_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : -1;
    const target = PANEL_TABS[next]?.id;
    if (target === undefined) return;
    event.preventDefault();
    setTab(target);
    tabs.current.get(target)?.focus();
  }

  if (importOpen) return <ImportLayoutDialog />;
  return (
    <section className="side-panels" aria-label="Side panels">
      <div role="tablist" aria-label="Side panels" className="side-tabs" onKeyDown={onKeyDown}>
        {PANEL_TABS.map((t) => (
          <button
            key={t.id}
            ref={(element) => {
              if (element) tabs.current.set(t.id, element);
              else tabs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={tabId(t.id)}
            aria-selected={t.id === tab}
            aria-controls={panelId(t.id)}
            tabIndex={t.id === tab ? 0 : -1}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {PANEL_TABS.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={panelId(t.id)}
          aria-labelledby={tabId(t.id)}
          tabIndex={0}
          hidden={t.id !== tab}
          className="side-panel"
        >
          {t.id === tab && t.id === shown && <PanelContent tab={t.id} />}
        </div>
      ))}
    </section>
  );
}
