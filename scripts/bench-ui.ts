// npm run bench:ui — how the page performs in Chromium (Debian's, via playwright-core): frame
// times, long tasks, snapshot bytes per second from the worker, initial JS size and time to the
// first drawn cluster, for the default scenario at 1× and 48 brokers / 2,000 partitions at 10×.
// Then responsiveness: click-to-next-paint of a side tab switch at 1×, 100× and 1000× on the
// default and the large preset (the Event Timing API's duration: from the input to the frame that
// shows its result, as Chrome's INP measures it), frame times with the Partition log tab open, and
// with the Messages tab open (the message diagram and the client history; also after a 10-minute run).
// Then the huge layout (--only huge): 200 brokers and 20,000 partitions pasted into Import layout
// (e2e/hugeLayout.ts): time from Open to the first drawn tile, the JS heaps, 10 s of play at 1× from
// the start, the wait until every partition exists, and 10 s of play after that.
// Then speed: every preset and lesson scene,
// healthy and degraded (a broker down; min.insync.replicas out of reach; a partition offline; a
// network split; a consumer group rebalancing), at 100× and 1000× (the large preset at 100×): the
// simulated clock the page shows against the wall clock, frame p50/p95 and long tasks per case.
// Prints the figures; asserts nothing.
//
// Options: --only render,responsiveness,partition-log,messages,speed,huge (default all); --scenes default,large,lesson:isr,...
// (default every preset and lesson); --conditions healthy,broker-down,... ; --speeds 100,1000;
// --measure-ms N (default 4000 for speed cases); --clicks N (responsiveness, default 24); --dist DIR serves a build already made there
// (for paired before/after runs) instead of building.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { presets } from '../src/scenario/presets';
import { lessons } from '../src/scenario/lessons';
import type { Command, Scenario, Snapshot } from '../src/sim/types';
import { describeOutput as hugeDescribeOutput } from '../e2e/hugeLayout';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

const PORT = Number(process.env.BENCH_PORT ?? 5196);
const MEASURE_MS = 5000;
const WARMUP_MS = 1500;

const root = join(import.meta.dirname, '..');

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const listOption = (name: string): string[] | undefined => option(name)?.split(',').filter(Boolean);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function build(dist: string, prebuilt: boolean): { initialGzip: number; totalGzip: number; files: string[] } {
  if (!prebuilt)
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  // The initial JS: the entry script and the modules it preloads; lazy chunks and the worker load later.
  const initial = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].flatMap(
    ([, file]) => file ?? [],
  );
  const gz = (file: string) => gzipSync(readFileSync(join(dist, file))).length;
  const all = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  return {
    initialGzip: initial.reduce((sum, f) => sum + gz(f), 0),
    totalGzip: all.reduce((sum, f) => sum + gz(join('assets', f)), 0),
    files: initial,
  };
}

async function waitForServer(url: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - start > timeoutMs) throw new Error(`No server at ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Runs in the page before its scripts: long tasks, and the moment the first broker card is drawn.
const INIT_SCRIPT = `
  window.__bench = { longTasks: 0, firstClusterMs: null };
  try {
    new PerformanceObserver((list) => { window.__bench.longTasks += list.getEntries().length; })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  (function watch() {
    const el = document.querySelector('.react-flow__node-cluster');
    if (el && el.getBoundingClientRect().width > 0 && getComputedStyle(el).visibility !== 'hidden') {
      window.__bench.firstClusterMs = performance.now();
      return;
    }
    requestAnimationFrame(watch);
  })();
`;

const FRAMES_SCRIPT = (ms: number) => `
  new Promise((resolve) => {
    const deltas = [];
    const startTasks = window.__bench.longTasks;
    let last = performance.now();
    const end = last + ${ms};
    function frame(now) {
      deltas.push(now - last);
      last = now;
      if (now < end) requestAnimationFrame(frame);
      else resolve({ deltas, longTasks: window.__bench.longTasks - startTasks });
    }
    requestAnimationFrame(frame);
  })
`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

interface Case {
  name: string;
  query: string;
  speed: number;
  targetP95Ms: number;
}

const CASES: Case[] = [
  { name: 'default scenario at 1×', query: '?debug', speed: 1, targetP95Ms: 16.7 },
  { name: '48 brokers, 2,000 partitions at 10×', query: '?preset=large&debug', speed: 10, targetP95Ms: 33 },
];

// Event Timing entries of each interaction (a click is pointerdown, pointerup and click): the
// longest is the interaction's latency. Chrome reports only those of 16 ms or more.
const EVENT_TIMING_SCRIPT = `
  window.__interactions = new Map();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.interactionId) continue;
      window.__interactions.set(e.interactionId, Math.max(window.__interactions.get(e.interactionId) ?? 0, e.duration));
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
`;

const RESPONSIVENESS_CASES = [
  { name: 'default', query: '?debug' },
  { name: 'large (48 brokers, 2,000 partitions)', query: '?preset=large&debug' },
];
const RESPONSIVENESS_SPEEDS = [1, 100, 1000];
/** Clicks per speed (`--clicks N`): the p95 of 24 is the second slowest, so more clicks steady it. */
const CLICKS = Number(option('clicks') ?? 24);

async function responsiveness(browser: import('playwright-core').Browser, base: string): Promise<void> {
  console.log('\nResponsiveness: click to next paint of a side tab switch (target p95 ≤ 100 ms)');
  for (const c of RESPONSIVENESS_CASES) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(INIT_SCRIPT + EVENT_TIMING_SCRIPT);
    await page.goto(base + c.query);
    await page.waitForFunction('window.__bench.firstClusterMs !== null', undefined, { timeout: 30_000 });
    for (const speed of RESPONSIVENESS_SPEEDS) {
      await page.evaluate(`window.__kclDebug.setSpeed(${speed}); window.__interactions.clear()`);
      await page.waitForTimeout(WARMUP_MS);
      // The tabs' places are found once, before the clicks: Playwright's role queries run on the
      // page's main thread and walk the whole DOM (some 50 ms over the large preset's 6,000 chips), so
      // a query made while the click's frame is drawn delays its paint, which no user's click pays.
      // Each click is then a plain mouse click; that it switched the tab is checked after the pause.
      const centres = new Map<string, { x: number; y: number }>();
      for (const tab of ['Dashboard', 'Controls']) {
        const box = await page.getByRole('tab', { name: tab }).boundingBox();
        if (!box) throw new Error(`the ${tab} tab is not on the screen`);
        centres.set(tab, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
      }
      await page.evaluate('window.__interactions.clear()');
      for (let i = 0; i < CLICKS; i++) {
        const tab = i % 2 === 0 ? 'Dashboard' : 'Controls';
        const { x, y } = centres.get(tab)!;
        await page.mouse.click(x, y);
        await page.waitForTimeout(400);
        const selected = await page.evaluate(
          `document.querySelector('[role="tab"][aria-selected="true"]')?.textContent ?? ''`,
        );
        if (!String(selected).includes(tab)) throw new Error(`click ${i + 1} did not select the ${tab} tab`);
      }
      // Interactions Chrome did not report took under 16 ms: counted as 16.
      const reported = (await page.evaluate('[...window.__interactions.values()]')) as number[];
      const all = [...reported, ...Array(Math.max(0, CLICKS - reported.length)).fill(16)];
      const playback = (await page.evaluate('window.__kclDebug.playback()')) as { achievedSpeed: number };
      console.log(
        `  ${c.name} at ${speed}× (achieved ${playback.achievedSpeed.toFixed(0)}×): p50 ${percentile(all, 50).toFixed(0)} ms, p95 ${percentile(all, 95).toFixed(0)} ms, max ${Math.max(...all).toFixed(0)} ms over ${CLICKS} clicks (${CLICKS - reported.length} under 16 ms)`,
      );
    }
    await page.close();
  }
}

// ---- speed: the speed a user picks against the speed the page shows ----

type Condition =
  'healthy' | 'broker-down' | 'min-isr' | 'partition-offline' | 'network-split' | 'rebalancing';
const CONDITIONS: Condition[] = [
  'healthy',
  'broker-down',
  'min-isr',
  'partition-offline',
  'network-split',
  'rebalancing',
];

interface SpeedScene {
  id: string;
  scenario: Scenario;
  brokers: number;
}

function speedScenes(): SpeedScene[] {
  const scenes = [
    ...Object.entries(presets).map(([id, p]) => ({ id, scenario: p.scenario })),
    ...lessons.map((l) => ({ id: `lesson:${l.id}`, scenario: l.scenario })),
  ];
  return scenes.map((s) => ({ ...s, brokers: brokerIds(s.scenario).length }));
}

const brokerIds = (scenario: Scenario): number[] =>
  scenario.nodes.filter((n) => n.roles.includes('broker')).map((n) => n.id);

/** The speeds a scene is held to: up to 1000× on up to 12 brokers, 100× above. */
const speedsFor = (scene: SpeedScene): number[] => (scene.brokers <= 12 ? [100, 1000] : [100]);

function scriptCommands(scenario: Scenario): Command[] {
  return (scenario.script ?? []).map((s) => s.command);
}

/** The topic a condition works on: the scenario's first, else the first the cluster has. */
function firstTopic(scenario: Scenario, snapshot: Snapshot): string | undefined {
  return (
    scenario.topics?.[0]?.name ??
    snapshot.partitions.find((p) => !p.topic.startsWith('__'))?.topic ??
    snapshot.partitions[0]?.topic
  );
}

/** The commands that put a scene in a condition, once it runs (the rebalancing churn comes on top). */
function conditionCommands(condition: Condition, scenario: Scenario, snapshot: Snapshot): Command[] {
  const brokers = brokerIds(scenario);
  const topic = firstTopic(scenario, snapshot);
  const first = brokers[0];
  switch (condition) {
    case 'healthy':
      return [];
    case 'broker-down':
      return first === undefined ? [] : [{ type: 'crashNode', nodeId: first }];
    case 'min-isr': {
      // One broker down and min.insync.replicas = RF: acks=all produces get NOT_ENOUGH_REPLICAS and retry.
      if (first === undefined || topic === undefined) return [];
      const rf = snapshot.partitions.find((p) => p.topic === topic)?.replicas.length ?? 1;
      const commands: Command[] = [
        { type: 'crashNode', nodeId: first },
        {
          type: 'alterConfig',
          resourceType: 'topic',
          resourceName: topic,
          configs: { 'min.insync.replicas': rf },
        },
      ];
      if (!scriptCommands(scenario).some((c) => c.type === 'startProducer'))
        commands.push({
          type: 'startProducer',
          producerId: 'bench-producer',
          topic,
          ratePerSec: 20,
          acks: 'all',
        });
      return commands;
    }
    case 'partition-offline': {
      const partition = snapshot.partitions.find((p) => p.topic === topic && p.partition === 0);
      return (partition?.replicas ?? []).map((nodeId) => ({ type: 'crashNode', nodeId }));
    }
    case 'network-split': {
      // The first broker's rack (or the first half of the brokers) and one controller, cut from the rest.
      const nodes = scenario.nodes;
      const rack = nodes.find((n) => n.id === first)?.rack;
      const side = new Set(
        rack !== undefined
          ? nodes.filter((n) => n.roles.includes('broker') && n.rack === rack).map((n) => n.id)
          : brokers.slice(0, Math.ceil(brokers.length / 2)),
      );
      const controller = nodes.find((n) => n.roles.includes('controller') && !side.has(n.id));
      if (controller && controller.id !== nodes.find((n) => n.roles.includes('controller'))?.id)
        side.add(controller.id);
      const rest = nodes.filter((n) => !side.has(n.id)).map((n) => n.id);
      return rest.length === 0 ? [] : [{ type: 'partitionNetwork', groups: [[...side], rest] }];
    }
    case 'rebalancing': {
      // A group to churn: the scenario's own, else one of two consumers started here.
      if (scriptCommands(scenario).some((c) => c.type === 'startConsumer') || topic === undefined) return [];
      return ['bench-c1', 'bench-c2'].map((consumerId) => ({
        type: 'startConsumer',
        consumerId,
        groupId: 'bench-group',
        topics: [topic],
      }));
    }
  }
}

/** The consumer the rebalancing case starts and stops, every CHURN_MS of wall time, in the scene's group. */
const CHURN_MS = 500;
function churnConsumer(scenario: Scenario, snapshot: Snapshot): Command & { type: 'startConsumer' } {
  const own = scriptCommands(scenario).find((c) => c.type === 'startConsumer');
  const topic = firstTopic(scenario, snapshot) ?? '';
  return own
    ? { type: 'startConsumer', consumerId: 'bench-churn', groupId: own.groupId, topics: own.topics }
    : { type: 'startConsumer', consumerId: 'bench-churn', groupId: 'bench-group', topics: [topic] };
}

interface SpeedResult {
  achievedRatio: number;
  reportedSpeed: number;
  note: string | null;
  p50: number;
  p95: number;
  longTasks: number;
  frames: number;
}

// In the page: frames, long tasks and the simulated clock the page shows, over `ms` of wall time.
const SPEED_SCRIPT = (ms: number) => `
  new Promise((resolve) => {
    const deltas = [];
    const startTasks = window.__bench.longTasks;
    const simAt = () => window.__kclDebug.snapshot()?.timeMs ?? 0;
    const startSim = simAt();
    const startWall = performance.now();
    let last = startWall;
    const end = last + ${ms};
    function frame(now) {
      deltas.push(now - last);
      last = now;
      if (now < end) requestAnimationFrame(frame);
      else resolve({
        deltas,
        longTasks: window.__bench.longTasks - startTasks,
        simMs: simAt() - startSim,
        wallMs: performance.now() - startWall,
      });
    }
    requestAnimationFrame(frame);
  })
`;

async function measureSpeedCase(
  page: import('playwright-core').Page,
  scene: SpeedScene,
  condition: Condition,
  speed: number,
  measureMs: number,
): Promise<SpeedResult> {
  await page.evaluate((s) => (globalThis as unknown as DebugWindow).__kclDebug.setSpeed(s), speed);
  await page.evaluate((sc) => (globalThis as unknown as DebugWindow).__kclDebug.open(sc), scene.scenario);
  // Let the cluster form (leaders, clients connected) before breaking it: 20 simulated seconds.
  await page.waitForFunction(
    () => ((globalThis as unknown as DebugWindow).__kclDebug.snapshot()?.timeMs ?? 0) >= 20_000,
    undefined,
    { timeout: 60_000 },
  );
  const snapshot = (await page.evaluate(() =>
    (globalThis as unknown as DebugWindow).__kclDebug.snapshot(),
  )) as Snapshot;
  for (const command of conditionCommands(condition, scene.scenario, snapshot))
    await page.evaluate((c) => (globalThis as unknown as DebugWindow).__kclDebug.command(c), command);
  if (condition === 'rebalancing') {
    const churn = churnConsumer(scene.scenario, snapshot);
    await page.evaluate(
      ([start, ms]) => {
        const debug = (globalThis as unknown as DebugWindow).__kclDebug;
        let joined = false;
        (globalThis as unknown as { __churn: unknown }).__churn = setInterval(() => {
          void debug.command(joined ? { type: 'stopConsumer', consumerId: start.consumerId } : start);
          joined = !joined;
        }, ms);
      },
      [churn, CHURN_MS] as const,
    );
  }
  await page.waitForTimeout(WARMUP_MS);
  const r = (await page.evaluate(SPEED_SCRIPT(measureMs))) as {
    deltas: number[];
    longTasks: number;
    simMs: number;
    wallMs: number;
  };
  await page.evaluate(() => clearInterval((globalThis as unknown as { __churn?: number }).__churn));
  const playback = (await page.evaluate(() =>
    (globalThis as unknown as DebugWindow).__kclDebug.playback(),
  )) as {
    achievedSpeed: number;
  };
  const note = (await page.evaluate(() => (globalThis as unknown as DebugWindow).__kclDebug.speedNote())) as
    string | null;
  return {
    achievedRatio: r.simMs / r.wallMs / speed,
    reportedSpeed: playback.achievedSpeed,
    note,
    p50: percentile(r.deltas, 50),
    p95: percentile(r.deltas, 95),
    longTasks: r.longTasks,
    frames: r.deltas.length,
  };
}

interface DebugWindow {
  __kclDebug: {
    setSpeed(speed: number): void;
    open(scenario: Scenario): void;
    command(command: Command): Promise<unknown>;
    snapshot(): Snapshot | null;
    playback(): unknown;
    speedNote(): string | null;
  };
}

async function speedCases(browser: import('playwright-core').Browser, base: string): Promise<void> {
  const sceneFilter = listOption('scenes');
  const conditions = (listOption('conditions') as Condition[] | undefined) ?? CONDITIONS;
  const speedFilter = listOption('speeds')?.map(Number);
  const measureMs = Number(option('measure-ms') ?? 4000);
  const scenes = speedScenes().filter((s) => !sceneFilter || sceneFilter.includes(s.id));
  console.log(
    `\nSpeed: simulated time the page shows per wall second, as a share of the speed asked (target ≥ 95%), over ${measureMs / 1000} s after ${WARMUP_MS / 1000} s; frame p50/p95 (target p95 ≤ 16.7 ms), long tasks (> 50 ms)`,
  );
  const ratios: number[] = [];
  for (const scene of scenes) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(INIT_SCRIPT);
    await page.goto(base + '?debug');
    await page.waitForFunction('window.__bench.firstClusterMs !== null', undefined, { timeout: 30_000 });
    for (const speed of speedsFor(scene).filter((s) => !speedFilter || speedFilter.includes(s)))
      for (const condition of conditions) {
        const r = await measureSpeedCase(page, scene, condition, speed, measureMs);
        ratios.push(r.achievedRatio);
        console.log(
          `  ${scene.id} ${condition} at ${speed}×: achieved ${(r.achievedRatio * 100).toFixed(0)}% (${(r.achievedRatio * speed).toFixed(0)}×; the worker said ${r.reportedSpeed.toFixed(0)}×${r.note ? `; banner "${r.note}"` : ''}), frame p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, long tasks ${r.longTasks}`,
        );
      }
    await page.close();
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  if (sorted.length > 0)
    console.log(
      `  ${sorted.length} cases: achieved median ${(percentile(sorted, 50) * 100).toFixed(0)}%, lowest ${((sorted[0] ?? 0) * 100).toFixed(0)}%, ${sorted.filter((r) => r >= 0.95).length} at 95% or more`,
    );
}

/**
 * The Partition log tab open on the default scene at 1× (orders-0, following the log's end, with a
 * record's journey shown): frame times while the log updates live (target p95 within 60 Hz).
 */
async function partitionLogFrames(browser: import('playwright-core').Browser, base: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(INIT_SCRIPT);
  await page.goto(base + '?debug');
  await page.waitForFunction('window.__bench.firstClusterMs !== null', undefined, { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await page
    .getByRole('table', { name: 'Partition health' })
    .getByRole('button', { name: 'orders-0' })
    .click();
  await page.getByRole('button', { name: 'Open the log of orders-0' }).click();
  await page
    .getByRole('button', { name: /, committed$/ })
    .first()
    .waitFor({ timeout: 30_000 });
  await page
    .getByRole('button', { name: /, committed$/ })
    .last()
    .click();
  await page.waitForTimeout(WARMUP_MS);
  const { deltas, longTasks } = (await page.evaluate(FRAMES_SCRIPT(MEASURE_MS))) as {
    deltas: number[];
    longTasks: number;
  };
  const rows = await page.getByRole('grid').getByRole('row').count();
  console.log('\nPartition log tab open (default scenario at 1×, orders-0 live, a journey shown)');
  console.log(
    `  frame time p50 ${percentile(deltas, 50).toFixed(1)} ms, p95 ${percentile(deltas, 95).toFixed(1)} ms (target p95 ≤ 16.7 ms) over ${deltas.length} frames; long tasks: ${longTasks}; rows in the DOM: ${rows}`,
  );
  await page.close();
}

/**
 * The Messages tab open on the default scene at 1× (the message diagram following the clock, last
 * 2 s, and the client history): frame times while it updates live, three runs; then the same after
 * a 10-minute run (played at 1000×), with the last 60 s in the window (target p95 within 60 Hz).
 */
async function messagesFrames(browser: import('playwright-core').Browser, base: string): Promise<void> {
  console.log(
    '\nMessages tab open (default scenario at 1×, the diagram following the clock, the client history)',
  );
  const measureOnce = async (label: string, tenMinutes: boolean) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(INIT_SCRIPT);
    await page.goto(base + '?debug');
    await page.waitForFunction('window.__bench.firstClusterMs !== null', undefined, { timeout: 30_000 });
    if (tenMinutes) {
      await page.evaluate('window.__kclDebug.setSpeed(1000)');
      await page.waitForFunction(
        `parseFloat(document.querySelector('[aria-label="Simulated time"]')?.textContent ?? '0') >= 600`,
        undefined,
        { timeout: 180_000, polling: 500 },
      );
      await page.evaluate('window.__kclDebug.setSpeed(1)');
    }
    await page.getByRole('tab', { name: 'Messages' }).click();
    if (tenMinutes) await page.getByRole('combobox', { name: 'Window' }).selectOption('60');
    const diagram = page.getByRole('group', { name: /^Message diagram/ });
    await diagram.getByRole('button').first().waitFor({ state: 'attached', timeout: 30_000 });
    await page.waitForTimeout(WARMUP_MS);
    const { deltas, longTasks } = (await page.evaluate(FRAMES_SCRIPT(MEASURE_MS))) as {
      deltas: number[];
      longTasks: number;
    };
    const arrows = await diagram.getByRole('button').count();
    const summary = (await page.getByRole('status', { name: 'Message diagram summary' }).innerText()).split(
      '.',
    )[0];
    console.log(
      `  ${label}: frame time p50 ${percentile(deltas, 50).toFixed(1)} ms, p95 ${percentile(deltas, 95).toFixed(1)} ms over ${deltas.length} frames; long tasks: ${longTasks}; arrows in the DOM: ${arrows} (${summary})`,
    );
    await page.close();
    return percentile(deltas, 95);
  };
  const p95s: number[] = [];
  for (let run = 1; run <= 3; run++) p95s.push(await measureOnce(`run ${run}`, false));
  const sorted = [...p95s].sort((a, b) => a - b);
  console.log(
    `  p95 median ${percentile(sorted, 50).toFixed(1)} ms, range ${sorted[0]!.toFixed(1)} to ${sorted[sorted.length - 1]!.toFixed(1)} ms (target ≤ 16.7 ms)`,
  );
  await measureOnce('after a 10-minute run, last 60 s', true);
}

// ---- huge: 200 brokers, 20,000 partitions, imported as the e2e does (e2e/large-cluster.spec.ts) ----

const HUGE_PLAY_MS = 10_000;

// In the page, armed just before Open is clicked: when the click lands, when the first tile (a node
// of a cluster of more than 64 brokers) is drawn, and when all 200 brokers' tiles are.
const TILES_WATCH_SCRIPT = `
  (() => {
    const b = window.__bench;
    b.openClickMs = null; b.firstTileMs = null; b.allTilesMs = null;
    document.addEventListener('click', () => { b.openClickMs ??= performance.now(); }, { capture: true, once: true });
    const visible = (el) => el.getBoundingClientRect().width > 0 && getComputedStyle(el).visibility !== 'hidden';
    (function watch() {
      const tiles = [...document.querySelectorAll('.react-flow__node-cluster .card--tile')].filter(visible);
      if (b.openClickMs !== null && tiles.length > 0) b.firstTileMs ??= performance.now();
      const brokers = tiles.filter((t) => t.classList.contains('card--broker'));
      if (b.openClickMs !== null && brokers.length >= 200) { b.allTilesMs = performance.now(); return; }
      requestAnimationFrame(watch);
    })();
  })()
`;

type CDPSession = import('playwright-core').CDPSession;

/** The used JS heap of the page's main thread and of the simulation's worker (CDP Runtime.getHeapUsage). */
async function heaps(
  pageCdp: CDPSession,
  browserCdp: CDPSession,
): Promise<{ page: number; worker: number | null }> {
  const page = ((await pageCdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
  // The worker: attached from the browser's session, its messages passed through Target (not flattened).
  const { targetInfos } = (await browserCdp.send('Target.getTargets')) as {
    targetInfos: { targetId: string; type: string; url: string }[];
  };
  const target = targetInfos.find((t) => t.type === 'worker');
  if (!target) return { page, worker: null };
  const { sessionId } = (await browserCdp.send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: false,
  })) as { sessionId: string };
  let listener: ((event: { sessionId: string; message: string }) => void) | undefined;
  try {
    const reply = new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      listener = (event) => {
        if (event.sessionId !== sessionId) return;
        const message = JSON.parse(event.message) as { id?: number; result?: { usedSize: number } };
        if (message.id !== 1) return;
        clearTimeout(timer);
        resolve(message.result?.usedSize ?? null);
      };
      browserCdp.on('Target.receivedMessageFromTarget', listener);
    });
    await browserCdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' }),
    });
    return { page, worker: await reply };
  } finally {
    if (listener) browserCdp.off('Target.receivedMessageFromTarget', listener);
    await browserCdp.send('Target.detachFromTarget', { sessionId });
  }
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

/**
 * 200 brokers in 4 racks and 20,000 partitions (RF 3), pasted into Import layout and opened, as
 * e2e/large-cluster.spec.ts does; then played at 1× from the paused start the import opens at:
 * a window from the start, and one once all 20,000 partitions exist.
 */
async function hugeCase(browser: import('playwright-core').Browser, base: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const pageCdp = await page.context().newCDPSession(page);
  const browserCdp = await browser.newBrowserCDPSession();
  await page.addInitScript(INIT_SCRIPT);
  await page.goto(base + '?debug');
  await page.waitForFunction('window.__bench.firstClusterMs !== null', undefined, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Import layout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import a layout' });
  const text = hugeDescribeOutput();
  const readStart = Date.now();
  // As a paste: the value set and one input event (Playwright's fill would type the 1.9 MB).
  await dialog.getByLabel('Pasted tool output').evaluate((field, value) => {
    // In the page; this file is checked without the DOM's globals, hence the casts.
    const dom = globalThis as unknown as {
      HTMLTextAreaElement: { prototype: object };
      Event: new (type: string, init: { bubbles: boolean }) => unknown;
    };
    Object.getOwnPropertyDescriptor(dom.HTMLTextAreaElement.prototype, 'value')!.set!.call(field, value);
    (field as unknown as { dispatchEvent(event: unknown): void }).dispatchEvent(
      new dom.Event('input', { bubbles: true }),
    );
  }, text);
  await dialog
    .getByRole('status', { name: 'What the import understood' })
    .filter({ hasText: /^Ready:/ })
    .waitFor({ timeout: 120_000 });
  const readMs = Date.now() - readStart;
  await page.evaluate(TILES_WATCH_SCRIPT);
  const openStart = Date.now();
  await dialog.getByRole('button', { name: 'Open' }).click();
  await page
    .getByRole('status', { name: 'Opened session' })
    .filter({ hasText: 'Opened from the imported layout' })
    .waitFor({ timeout: 180_000 });
  const openedMs = Date.now() - openStart;
  await page.waitForFunction('window.__bench.allTilesMs !== null', undefined, { timeout: 180_000 });
  const drawn = (await page.evaluate(
    '({ click: window.__bench.openClickMs, first: window.__bench.firstTileMs, all: window.__bench.allTilesMs })',
  )) as { click: number; first: number; all: number };
  const opened = await heaps(pageCdp, browserCdp);

  // A window of play: frames, long tasks, the simulated clock the page shows, what the worker and the banner said.
  const playWindow = async () => {
    await page.waitForTimeout(WARMUP_MS);
    const r = (await page.evaluate(SPEED_SCRIPT(HUGE_PLAY_MS))) as {
      deltas: number[];
      longTasks: number;
      simMs: number;
      wallMs: number;
    };
    const state = (await page.evaluate(
      `({ speed: window.__kclDebug.playback().achievedSpeed, note: window.__kclDebug.speedNote(),
          simAt: window.__kclDebug.snapshot()?.timeMs ?? 0, partitions: window.__kclDebug.snapshot()?.partitions.length ?? 0 })`,
    )) as { speed: number; note: string | null; simAt: number; partitions: number };
    const ratio = r.simMs / r.wallMs;
    return `achieved ${(ratio * 100).toFixed(0)}% (${ratio.toFixed(2)}×; the worker said ${state.speed.toFixed(2)}×${state.note ? `; banner "${state.note}"` : ''}; clock at ${(state.simAt / 1000).toFixed(1)} s, ${state.partitions.toLocaleString('en-US')} partitions), frame p50 ${percentile(r.deltas, 50).toFixed(1)} ms, p95 ${percentile(r.deltas, 95).toFixed(1)} ms over ${r.deltas.length} frames, long tasks ${r.longTasks}`;
  };

  console.log(
    `\n200 brokers, 20,000 partitions (Import layout, ${(text.length / 1024 / 1024).toFixed(1)} MB pasted), at 1×, windows of ${HUGE_PLAY_MS / 1000} s after ${WARMUP_MS / 1000} s`,
  );
  console.log(
    `  import read to Ready: ${readMs} ms; Open to first tile drawn ${(drawn.first - drawn.click).toFixed(0)} ms, to all 200 brokers' tiles ${(drawn.all - drawn.click).toFixed(0)} ms, to 'Opened session' ${openedMs} ms`,
  );
  // The import opens paused at 0 s: played from there, the first window holds the controllers'
  // election, the brokers' registration and the topics' creation (every replica built at once).
  await page.evaluate('window.__kclDebug.setSpeed(1)');
  const playStart = Date.now();
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Play' }).click();
  console.log(`  first window of play: ${await playWindow()}`);
  await page.waitForFunction('(window.__kclDebug.snapshot()?.partitions.length ?? 0) >= 20000', undefined, {
    timeout: 300_000,
    polling: 250,
  });
  const createdWallMs = Date.now() - playStart;
  const createdSimMs = (await page.evaluate('window.__kclDebug.snapshot().timeMs')) as number;
  console.log(
    `  all 20,000 partitions in the page's snapshot ${(createdWallMs / 1000).toFixed(1)} s of wall time after Play (at ${(createdSimMs / 1000).toFixed(1)} simulated s)`,
  );
  console.log(`  then: ${await playWindow()}`);
  const played = await heaps(pageCdp, browserCdp);
  console.log(
    `  JS heap used (CDP Runtime.getHeapUsage, no GC first): page ${mb(opened.page)}, worker ${mb(opened.worker)} once opened; page ${mb(played.page)}, worker ${mb(played.worker)} at the end`,
  );
  await browserCdp.detach();
  await page.close();
}

async function main() {
  const prebuilt = option('dist');
  const dist = prebuilt ?? join(root, 'dist');
  const only = listOption('only') ?? [
    'render',
    'responsiveness',
    'partition-log',
    'messages',
    'speed',
    'huge',
  ];
  if (!prebuilt) console.log('Building (vite build)…');
  const bundle = build(dist, prebuilt !== undefined);
  // Served in this process (vite's API), so it stops with the script.
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir: dist },
    preview: { port: PORT, strictPort: true, host: '127.0.0.1' },
  });
  const base = `http://127.0.0.1:${PORT}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await waitForServer(base);
    console.log(
      `\nInitial JS (gzipped): ${kb(bundle.initialGzip)} (target < 300 KB) in ${bundle.files.join(', ')}; all JS with lazy chunks and the worker: ${kb(bundle.totalGzip)}`,
    );
    if (only.includes('render')) for (const c of CASES) await renderCase(browser, base, c);
    if (only.includes('responsiveness')) await responsiveness(browser, base);
    if (only.includes('partition-log')) await partitionLogFrames(browser, base);
    if (only.includes('messages')) await messagesFrames(browser, base);
    if (only.includes('speed')) await speedCases(browser, base);
    if (only.includes('huge')) await hugeCase(browser, base);
  } finally {
    await browser.close();
    await server.close();
  }
}

async function renderCase(browser: import('playwright-core').Browser, base: string, c: Case): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(INIT_SCRIPT);
  await page.goto(base + c.query);
  await page.waitForFunction('window.__bench.firstClusterMs !== null', undefined, { timeout: 30_000 });
  const firstClusterMs = (await page.evaluate('window.__bench.firstClusterMs')) as number;
  await page.evaluate(`window.__kclDebug.setSpeed(${c.speed}); window.__kclDebug.measure(true)`);
  await page.waitForTimeout(WARMUP_MS);
  const { deltas, longTasks } = (await page.evaluate(FRAMES_SCRIPT(MEASURE_MS))) as {
    deltas: number[];
    longTasks: number;
  };
  const playback = (await page.evaluate('window.__kclDebug.playback()')) as {
    achievedSpeed: number;
    snapshotBytesPerSecond: number | null;
  };
  const p50 = percentile(deltas, 50);
  const p95 = percentile(deltas, 95);
  console.log(`\n${c.name}`);
  console.log(
    `  frame time p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target p95 ≤ ${c.targetP95Ms} ms) over ${deltas.length} frames`,
  );
  console.log(`  long tasks (> 50 ms) in ${MEASURE_MS / 1000} s: ${longTasks}`);
  console.log(`  snapshot bytes from the worker: ${kb(playback.snapshotBytesPerSecond ?? 0)}/s`);
  console.log(`  achieved speed: ${playback.achievedSpeed.toFixed(1)}× of ${c.speed}×`);
  console.log(
    `  first cluster drawn: ${firstClusterMs.toFixed(0)} ms after navigation start (target ≤ 1500 ms)`,
  );
  await page.close();
}

await main();
