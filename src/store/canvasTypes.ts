// The engine types the canvas needs, re-exported so that src/canvas never imports src/sim.
export type { Command, NodeId, VoterState } from '../sim/types';
