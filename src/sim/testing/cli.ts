// The terminal in tests: one line typed against a simulation, answered as the page's terminal shows
// it (the tool's output, or the refusal's message), and the small clusters the tools' tests run on.
import { createSimulation } from '../index';
import type { Simulation } from '../simulation';
import { clusterScenario, type ClusterSpec } from './driver';

/** What every tool line in the tests names as its bootstrap server. */
export const BS = '--bootstrap-server localhost:9092';

/** One line typed in the terminal: its output, or the message it was refused with. */
export function cli(sim: Simulation, line: string): { ok: boolean; output: string } {
  const r = sim.apply({ type: 'cli', line });
  return { ok: r.ok, output: r.output ?? (r.ok ? '' : r.error) };
}

/** As `cli`, with whether the line only read the cluster (a read-only line is not recorded). */
export function cliWithKind(
  sim: Simulation,
  line: string,
): { ok: boolean; output: string; readOnly: boolean } {
  const r = sim.apply({ type: 'cli', line });
  return { ok: r.ok, output: r.output ?? (r.ok ? '' : r.error), readOnly: r.ok && r.readOnly === true };
}

/** A cluster of one controller (node 1) and the brokers of `spec`, 5 s in: every broker registered and unfenced. */
export function toolCluster(spec: ClusterSpec): Simulation {
  const sim = createSimulation(clusterScenario({ controllers: 1, ...spec }));
  sim.advance(5000);
  return sim;
}
