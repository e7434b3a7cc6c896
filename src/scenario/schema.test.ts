import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import { assert, describe, expect, it } from 'vitest';
import { CONFIG_DEFS } from '../sim';
import { COMMAND_TYPES, validateScenario } from '../sim';
import { defaultScenario, presets } from './presets';
import { scenarioSchema } from './schema';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const schemaFile = join(ROOT, 'docs', 'scenario.schema.json');
const docFile = join(ROOT, 'docs', 'scenario.md');
const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);

const examplesDir = join(ROOT, 'examples');
const examples = existsSync(examplesDir)
  ? readdirSync(examplesDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(readFileSync(join(examplesDir, f), 'utf8'))] as const)
  : [];

const scenarios: (readonly [string, unknown])[] = [
  ['defaultScenario', defaultScenario],
  ...Object.entries(presets).map(([name, p]) => [`presets.${name}`, p.scenario] as const),
  ...examples.map(([file, s]) => [`examples/${file}`, s] as const),
];

describe('docs/scenario.schema.json', () => {
  it('is what src/scenario/schema.ts builds (regenerate it as that file says)', () => {
    expect(schema).toEqual(scenarioSchema());
  });

  it('lists exactly the cluster and broker configs of CONFIG_DEFS', () => {
    const brokerSide = Object.values(CONFIG_DEFS)
      .filter((d) => d.scopes.includes('cluster') || d.scopes.includes('broker'))
      .map((d) => d.name);
    expect(Object.keys(schema.$defs.clusterConfig.properties).sort()).toEqual(brokerSide.sort());
  });

  it('lists exactly the topic configs of CONFIG_DEFS', () => {
    const topicSide = Object.values(CONFIG_DEFS)
      .filter((d) => d.scopes.includes('topic'))
      .map((d) => d.name);
    expect(Object.keys(schema.$defs.topicConfig.properties).sort()).toEqual(topicSide.sort());
  });

  it('describes every command type', () => {
    const types = schema.$defs.command.oneOf.map(
      (c: { properties: { type: { const: string } } }) => c.properties.type.const,
    );
    expect(types.sort()).toEqual([...COMMAND_TYPES].sort());
  });

  it('accepts every config at its default', () => {
    const base = structuredClone(defaultScenario);
    for (const def of Object.values(CONFIG_DEFS)) {
      const scenario = structuredClone(base);
      if (def.scopes.includes('cluster')) scenario.config = { [def.name]: def.default };
      const topic = scenario.topics?.[0];
      assert(topic, 'the base scenario has a topic');
      if (def.scopes.includes('topic')) topic.config = { [def.name]: def.default };
      expect(validate(scenario), `${def.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('refuses unknown fields and config names, as the validator does', () => {
    const withUnknownConfig = { ...defaultScenario, config: { 'no.such.config': 1 } };
    const withUnknownField = { ...defaultScenario, colour: 'blue' };
    expect(validate(withUnknownConfig)).toBe(false);
    expect(validate(withUnknownField)).toBe(false);
    expect(validateScenario(withUnknownConfig)).not.toEqual([]);
    expect(validateScenario(withUnknownField)).not.toEqual([]);
  });
});

describe('built-in presets and examples', () => {
  it.each(scenarios)('%s is valid by the schema and by the validator', (_name, scenario) => {
    expect(validate(scenario), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(validateScenario(scenario)).toEqual([]);
  });

  it('include the ones the app relies on', () => {
    expect(Object.keys(presets)).toEqual(
      expect.arrayContaining(['default', 'three-brokers', 'one-host-anti-pattern']),
    );
    expect(presets.default.scenario).toBe(defaultScenario);
  });
});

describe('docs/scenario.md', () => {
  const doc = readFileSync(docFile, 'utf8');

  it('documents every config', () => {
    const missing = Object.keys(CONFIG_DEFS).filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('documents every command', () => {
    const missing = COMMAND_TYPES.filter((type) => !doc.includes(`\`${type}\``));
    expect(missing).toEqual([]);
  });
});
