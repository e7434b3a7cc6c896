// A lesson step whose task needs a side-panel form opens the form's tab, scrolls the form into view
// and rings it (lesson-subject-panel in styles.css), again whenever its tab is shown. A step about a
// partition's log opens the Partition log tab on that partition.
import { useEffect } from 'react';
import { usePanelsUi, type PanelTab } from '../panels/uiStore';
import { useRecordLogStore } from '../store/recordLog';
import { useSpotlightStore, type Spotlight } from '../store/spotlight';

const MARK = 'lesson-subject-panel';

function sectionNamed(title: string): HTMLElement | null {
  const headings = document.querySelectorAll<HTMLElement>('.side section > h2, .side section > h3');
  const heading = [...headings].find((h) => h.textContent?.trim() === title);
  return heading?.parentElement ?? null;
}

function mark(panel: Spotlight['panel'], scroll: boolean): void {
  document.querySelectorAll(`.${MARK}`).forEach((el) => el.classList.remove(MARK));
  if (!panel) return;
  const section = sectionNamed(panel.section);
  if (!section) return;
  section.classList.add(MARK);
  if (!scroll) return;
  // Below the sticky tabs, however many rows they wrap to (three at 1280×720), with its heading.
  const tabs = document.querySelector<HTMLElement>('.side .side-tabs');
  if (tabs) section.style.scrollMarginTop = `${tabs.offsetHeight + 8}px`;
  section.scrollIntoView({ block: 'start' });
}

export function useFollowSubject(): void {
  useEffect(() => {
    let handle = 0;
    const later = (panel: Spotlight['panel'], scroll: boolean) => {
      cancelAnimationFrame(handle);
      handle = requestAnimationFrame(() => mark(panel, scroll));
    };
    const offSpotlight = useSpotlightStore.subscribe((s, previous) => {
      if (s.log && s.log !== previous.log) useRecordLogStore.getState().openLog(s.log);
      if (s.panel === previous.panel) return;
      if (s.panel) usePanelsUi.getState().setTab(s.panel.tab as PanelTab);
      later(s.panel, true);
    });
    const offTab = usePanelsUi.subscribe((s, previous) => {
      if (s.tab !== previous.tab) later(useSpotlightStore.getState().panel, false);
    });
    // A resize (a projector, presenter mode) reflows the panels: bring the form back into view.
    const onResize = () => later(useSpotlightStore.getState().panel, true);
    window.addEventListener('resize', onResize);
    return () => {
      offSpotlight();
      offTab();
      window.removeEventListener('resize', onResize);
      cancelAnimationFrame(handle);
    };
  }, []);
}
