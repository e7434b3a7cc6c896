// ACLs (kafka-acls --add / --remove): a binding of principal, operation, resource and pattern,
// allowed or denied, and the list of current ones.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { refusalMessages, selectAcls, type AclBinding, type AclOperation } from '../store/operations';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, SelectField, TextField, useCommand } from './form';

const OPERATIONS: AclOperation[] = ['Read', 'Write', 'Describe', 'All'];

export function AclSection() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const acls = useMemo(() => selectAcls(snapshot), [snapshot]);
  const enforced = snapshot?.security?.enforced ?? false;
  const id = useId();
  const command = useCommand();
  const [principal, setPrincipal] = useState('User:alice');
  const [operation, setOperation] = useState<AclOperation>('Read');
  const [resourceType, setResourceType] = useState<'topic' | 'group'>('topic');
  const [resourceName, setResourceName] = useState('orders');
  const [patternType, setPatternType] = useState<'literal' | 'prefixed'>('literal');
  const [permission, setPermission] = useState<'allow' | 'deny'>('allow');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const acl: AclBinding = { principal, operation, resourceType, resourceName, patternType, permission };
    void command.run(
      { type: 'addAcl', ...acl },
      `ACL added: ${permission} ${principal} ${operation} on ${resourceType} ${resourceName}.`,
    );
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>ACLs</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <TextField
            id={`${id}-principal`}
            label="Principal"
            value={principal}
            onValue={setPrincipal}
            errors={refusalMessages(command.error)}
          />
          <SelectField
            id={`${id}-operation`}
            label="Operation"
            value={operation}
            onValue={setOperation}
            options={OPERATIONS}
          />
          <SelectField
            id={`${id}-type`}
            label="Resource type"
            value={resourceType}
            onValue={setResourceType}
            options={['topic', 'group']}
          />
          <TextField id={`${id}-name`} label="Resource name" value={resourceName} onValue={setResourceName} />
          <SelectField
            id={`${id}-pattern`}
            label="Pattern"
            value={patternType}
            onValue={setPatternType}
            options={['literal', 'prefixed']}
          />
          <SelectField
            id={`${id}-permission`}
            label="Permission"
            value={permission}
            onValue={setPermission}
            options={['allow', 'deny']}
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy}>
            Add ACL
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={[]} />
      <h4 id={`${id}-list`}>Current ACLs</h4>
      <p className="hint">
        {enforced
          ? 'ACLs are enforced: a request no ACL allows is refused.'
          : 'No ACLs: every request is allowed.'}
      </p>
      {acls.length > 0 && (
        <ul aria-labelledby={`${id}-list`}>
          {acls.map(({ key, acl, text }) => (
            <li key={key}>
              {text}{' '}
              <button
                type="button"
                aria-label={`Remove ACL: ${text}`}
                disabled={command.busy}
                onClick={() => void command.run({ type: 'removeAcl', ...acl }, `ACL removed: ${text}.`)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
