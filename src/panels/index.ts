// The side panels (Controls, Inspector, Dashboard, Event log, Vital signs) and the always-visible health bar,
// for src/app to place in the layout.
export { SidePanels } from './SidePanels';
export { HealthBar } from './HealthBar';
export { usePanelsUi, type PanelTab } from './uiStore';
