// Golden outputs of kafka-acls.sh and kafka-features.sh on fixed scenarios, the expected text written
// from Kafka's source (the file named in each describe).
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../simulation';
import { BS, cli as run, toolCluster } from '../testing/cli';

const acls = (sim: Simulation) => sim.snapshot().security?.acls ?? [];

function cluster(): Simulation {
  return toolCluster({
    brokers: 3,
    topics: [{ name: 'orders', partitions: 3, replicationFactor: 3 }],
  });
}

// core/src/main/scala/kafka/admin/AclCommand.scala: addAcls / printResourceAcls print
// s"… `$resource`: $Newline ${acls.map("\t" + _).mkString(Newline)} $Newline" with println;
// ResourcePattern.toString and AccessControlEntryData.toString give the parts.
describe('kafka-acls.sh', () => {
  const topic = '`ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`';
  const group = '`ResourcePattern(resourceType=GROUP, name=billing, patternType=LITERAL)`';
  const ace = (p: string, op: string, perm = 'ALLOW') =>
    `\t(principal=${p}, host=*, operation=${op}, permissionType=${perm})`;

  it('--add prints each resource and its entries, and the authorizer enforces them', () => {
    const sim = cluster();
    expect(
      run(
        sim,
        `kafka-acls.sh ${BS} --add --allow-principal User:alice --operation Read --operation Write --topic orders`,
      ),
    ).toEqual({
      ok: true,
      output: [
        `Adding ACLs for resource ${topic}: `,
        ` ${ace('User:alice', 'READ')}`,
        `${ace('User:alice', 'WRITE')} `,
        '',
      ].join('\n'),
    });
    expect(acls(sim)).toEqual([
      expect.objectContaining({
        principal: 'User:alice',
        operation: 'Read',
        resourceType: 'topic',
        permission: 'allow',
      }),
      expect.objectContaining({
        principal: 'User:alice',
        operation: 'Write',
        resourceType: 'topic',
        permission: 'allow',
      }),
    ]);
    // Recorded as the security form's command would be.
    expect(sim.events().filter((e) => e.type === 'AclAdded')).toHaveLength(2);
    expect(sim.events().filter((e) => e.type === 'CliCommand')).toHaveLength(1);
  });

  it('--consumer adds Read and Describe on the topic and Read on the group; --list groups them by resource', () => {
    const sim = cluster();
    run(
      sim,
      `kafka-acls.sh ${BS} --add --consumer --allow-principal User:bob --topic orders --group billing`,
    );
    run(sim, `kafka-acls.sh ${BS} --add --deny-principal User:eve --topic orders`);
    expect(run(sim, `kafka-acls.sh ${BS} --list`).output).toBe(
      [
        `Current ACLs for resource ${topic}: `,
        ` ${ace('User:bob', 'READ')}`,
        ace('User:bob', 'DESCRIBE'),
        `${ace('User:eve', 'ALL', 'DENY')} `,
        '',
        `Current ACLs for resource ${group}: `,
        ` ${ace('User:bob', 'READ')} `,
        '',
      ].join('\n'),
    );
    expect(run(sim, `kafka-acls.sh ${BS} --list --group billing --principal User:bob`).output).toBe(
      [
        'ACLs for principal `User:bob`',
        `Current ACLs for resource ${group}: `,
        ` ${ace('User:bob', 'READ')} `,
        '',
      ].join('\n'),
    );
  });

  it('--remove asks first; with --force (or a piped y) it deletes what the filter matches', () => {
    const sim = cluster();
    run(
      sim,
      `kafka-acls.sh ${BS} --add --allow-principal User:alice --operation Read --operation Write --topic orders`,
    );
    const asked = run(
      sim,
      `kafka-acls.sh ${BS} --remove --allow-principal User:alice --operation Read --topic orders`,
    );
    expect(asked.ok).toBe(false);
    expect(asked.output.split('\n').slice(0, 3)).toEqual([
      'Are you sure you want to remove ACLs: ',
      ` ${ace('User:alice', 'READ')} `,
      ` from resource filter ${topic}? (y/n)`,
    ]);
    expect(acls(sim)).toHaveLength(2);
    expect(
      run(
        sim,
        `kafka-acls.sh ${BS} --remove --force --allow-principal User:alice --operation Read --topic orders`,
      ),
    ).toEqual({ ok: true, output: '' });
    expect(acls(sim).map((a) => a.operation)).toEqual(['Write']);
    expect(run(sim, `echo y | kafka-acls.sh ${BS} --remove --topic orders`).output).toBe(
      `Are you sure you want to delete all ACLs for resource filter ${topic}? (y/n)`,
    );
    expect(acls(sim)).toEqual([]);
  });

  it("refuses in the tool's words, and says what the simulator does not model as its own note", () => {
    const sim = cluster();
    const noPrincipal = run(sim, `kafka-acls.sh ${BS} --add --topic orders`);
    expect(noPrincipal.output.split('\n').slice(0, 2)).toEqual([
      'You must specify one of: --allow-principal, --deny-principal when trying to add ACLs.',
      'Usage: kafka-acls.sh [options]',
    ]);
    expect(
      run(sim, `kafka-acls.sh ${BS} --add --allow-principal User:a --operation Alter --group billing`).output,
    ).toMatch(
      /^ResourceType GROUP only supports operations Read, Delete, Describe, DescribeConfigs, AlterConfigs, All\nUsage: kafka-acls.sh/,
    );
    expect(run(sim, `kafka-acls.sh ${BS} --add --allow-principal alice --topic orders`).output).toBe(
      'Error while executing ACL command: expected a string in format principalType:principalName but got alice',
    );
    expect(run(sim, `kafka-acls.sh ${BS} --list --add`).output.split('\n')[0]).toBe(
      'Command must include exactly one action: --list, --add, --remove. ',
    );
    expect(
      run(sim, `kafka-acls.sh ${BS} --add --allow-principal User:a --cluster --operation Alter`).output,
    ).toBe(
      'Note (simulator): the simulated authorizer holds ACLs on topics and groups only, not on CLUSTER resources (docs/cli.md).',
    );
    expect(
      run(sim, `kafka-acls.sh ${BS} --add --allow-principal User:a --operation Create --topic orders`).output,
    ).toMatch(/^Note \(simulator\): .* not Create/);
    expect(run(sim, `kafka-acls.sh ${BS} --lst`).output.split('\n').slice(0, 2)).toEqual([
      "'lst' is not a recognized option",
      'Usage: kafka-acls.sh [options]',
    ]);
    expect(acls(sim)).toEqual([]);
  });
});

// tools/src/main/java/org/apache/kafka/tools/FeatureCommand.java: handleDescribe's printf, features
// sorted by name, metadata.version by its release name (levelToString); update()'s lines.
describe('kafka-features.sh', () => {
  const line = (name: string, min: string, max: string, level: string, epoch: number) =>
    `Feature: ${name}\tSupportedMinVersion: ${min}\tSupportedMaxVersion: ${max}\tFinalizedVersionLevel: ${level}\tEpoch: ${epoch}`;

  it('describe lists the features the simulator models, with the metadata offset as the epoch', () => {
    const sim = cluster();
    const r = run(sim, `kafka-features.sh ${BS} describe`);
    const epoch = Number(/Epoch: (\d+)/.exec(r.output)?.[1]);
    expect(epoch).toBeGreaterThan(0);
    expect(r).toEqual({
      ok: true,
      output: [
        line('eligible.leader.replicas.version', '0', '1', '1', epoch),
        line('group.version', '0', '1', '1', epoch),
        line('kraft.version', '0', '1', '0', epoch),
        line('metadata.version', '3.3-IV3', '4.1-IV1', '4.1-IV1', epoch),
        line('transaction.version', '0', '2', '0', epoch),
      ].join('\n'),
    });
  });

  it('downgrade --feature eligible.leader.replicas.version=0 turns ELR off as the cluster setting', () => {
    const sim = cluster();
    expect(
      run(sim, `kafka-features.sh ${BS} downgrade --feature eligible.leader.replicas.version=0 --dry-run`)
        .output,
    ).toBe('eligible.leader.replicas.version can be downgraded to 0.');
    expect(
      run(sim, `kafka-features.sh ${BS} downgrade --feature eligible.leader.replicas.version=0`),
    ).toEqual({
      ok: true,
      output: 'eligible.leader.replicas.version was downgraded to 0.',
    });
    sim.advance(1000);
    expect(run(sim, `kafka-features.sh ${BS} describe`).output.split('\n')[0]).toMatch(
      /^Feature: eligible.leader.replicas.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 1\tFinalizedVersionLevel: 0\t/,
    );
    expect(run(sim, `kafka-features.sh ${BS} upgrade --feature eligible.leader.replicas.version=0`)).toEqual({
      ok: true,
      output: 'eligible.leader.replicas.version was upgraded to 0.',
    });
  });

  it("refuses in FeatureControlManager's and argparse4j's words", () => {
    const sim = cluster();
    expect(run(sim, `kafka-features.sh ${BS} upgrade --feature group.version=3`).output).toBe(
      [
        'Could not upgrade group.version to 3. Invalid update version 3 for feature group.version. Local controller 1 only supports versions 0-1',
        '1 out of 1 operation(s) failed.',
      ].join('\n'),
    );
    expect(
      run(sim, `kafka-features.sh ${BS} upgrade --feature eligible.leader.replicas.version=0`).output,
    ).toMatch(/Can't downgrade the version of this feature without setting the upgrade type/);
    expect(run(sim, `kafka-features.sh ${BS} upgrade --feature x`).output).toBe(
      "Can't parse feature=level string x: equals sign not found.",
    );
    expect(run(sim, `kafka-features.sh ${BS} explain`).output.split('\n').at(-1)).toBe(
      "kafka-features: error: argument command: invalid choice: 'explain' (choose from 'describe', 'upgrade', 'downgrade', 'disable', 'version-mapping', 'feature-dependencies')",
    );
    expect(run(sim, 'kafka-features.sh describe').output.split('\n').at(-1)).toBe(
      'kafka-features: error: one of the arguments --bootstrap-server --bootstrap-controller is required',
    );
  });
});
