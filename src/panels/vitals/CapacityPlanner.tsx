// Sizing a cluster on paper: the engine's capacityPlan on a small form, prefilled with its worked
// example (SEED_EXAMPLE: 100 MB/s kept three days, three copies, ten consumer groups).
import { useId, useMemo, useState } from 'react';
import { capacityPlan, SEED_EXAMPLE } from '../../scenario';
import { capacityFormOf, capacityInputOf, capacityView, type CapacityForm } from '../../store/vitals';

const FIELDS: { key: keyof CapacityForm; label: string; min: number; step: string }[] = [
  { key: 'writeMBPerSec', label: 'Write rate (MB/s)', min: 0, step: 'any' },
  { key: 'retentionDays', label: 'Retention (days)', min: 0, step: 'any' },
  { key: 'replicationFactor', label: 'Replication factor', min: 1, step: '1' },
  { key: 'consumerGroups', label: 'Consumer groups', min: 0, step: '1' },
  { key: 'brokers', label: 'Brokers', min: 1, step: '1' },
];

export function CapacityPlanner() {
  const id = useId();
  const [text, setText] = useState<Record<keyof CapacityForm, string>>(() => {
    const form = capacityFormOf(SEED_EXAMPLE);
    return Object.fromEntries(FIELDS.map((f) => [f.key, String(form[f.key])])) as Record<
      keyof CapacityForm,
      string
    >;
  });
  const result = useMemo(() => {
    const form = Object.fromEntries(
      FIELDS.map((f) => [f.key, Number(text[f.key])]),
    ) as unknown as CapacityForm;
    const bad = FIELDS.find(
      (f) => text[f.key].trim() === '' || !Number.isFinite(form[f.key]) || form[f.key] < f.min,
    );
    if (bad) return { error: `${bad.label} must be a number of at least ${bad.min}.` };
    try {
      return { view: capacityView(capacityPlan(capacityInputOf(form))) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }, [text]);

  return (
    <section className="control-section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Capacity plan</h3>
      <p className="hint">
        Prefilled with the worked example: 100 MB/s kept three days with three copies, read by ten consumer
        groups, on six brokers. Decimal units (1 TB = 10¹² bytes).
      </p>
      <form className="form-grid" aria-label="Capacity plan" onSubmit={(e) => e.preventDefault()}>
        {FIELDS.map((f) => (
          <label key={f.key}>
            {f.label}
            <input
              type="number"
              min={f.min}
              step={f.step}
              value={text[f.key]}
              aria-invalid={result.error !== undefined && Number(text[f.key]) < f.min ? true : undefined}
              onChange={(e) => setText((t) => ({ ...t, [f.key]: e.target.value }))}
            />
          </label>
        ))}
      </form>
      {result.view ? (
        <>
          <dl className="capacity-results" aria-label="Capacity plan results">
            <dt>Storage, total</dt>
            <dd>{result.view.storageTotal}</dd>
            <dt>Storage per broker</dt>
            <dd>{result.view.storagePerBroker}</dd>
            <dt>Network in per broker</dt>
            <dd>{result.view.networkInPerBroker}</dd>
            <dt>Network out per broker</dt>
            <dd>{result.view.networkOutPerBroker}</dd>
          </dl>
          <ul className="capacity-explanation">
            {result.view.explanation.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <p className="field-error" role="alert">
          {result.error}
        </p>
      )}
    </section>
  );
}
