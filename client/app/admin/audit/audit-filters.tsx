/**
 * The audit log's filters (docs/operators.md#audit-log): a kind, an actor, a target and a time range
 * read on the operator's zone's clock; Filter applies them, Clear drops them.
 */
import type { FormEvent } from 'react';
import { instantIn } from '../shared/zoned-time.ts';
import { AUDIT_KINDS, type AuditFilter, type AuditKind } from './audit-api.ts';
import type { AuditTexts } from './audit-texts.ts';

/** The form's fields as the API's filter: empty ones left out, times read in `zone`. */
function filterOf(form: FormData, zone: string): AuditFilter {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const time = (name: string) => (text(name) ? new Date(instantIn(zone, text(name))).toISOString() : undefined);
  const filter: AuditFilter = {};
  const kind = text('kind');
  if ((AUDIT_KINDS as readonly string[]).includes(kind)) filter.kind = kind as AuditKind;
  if (text('actor')) filter.actor = text('actor');
  if (text('target')) filter.target = text('target');
  const from = time('since');
  const to = time('until');
  if (from) filter.from = from;
  if (to) filter.to = to;
  return filter;
}

export function AuditFilters({
  t,
  zone,
  onFilter,
}: {
  t: AuditTexts;
  /** The operator's time zone: the range is read on its clock. */
  zone: string;
  onFilter: (filter: AuditFilter) => void;
}) {
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onFilter(filterOf(new FormData(event.currentTarget), zone));
  };
  return (
    <form className="audit-filters" onSubmit={apply} onReset={() => onFilter({})}>
      <label>
        {t.kind}
        <select name="kind" defaultValue="">
          <option value="">{t.anyKind}</option>
          {AUDIT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t.kinds[kind]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.who}
        <input name="actor" maxLength={200} autoComplete="off" />
      </label>
      <label>
        {t.target}
        <input name="target" maxLength={200} autoComplete="off" />
      </label>
      <label>
        {t.from} ({zone})
        <input name="since" type="datetime-local" />
      </label>
      <label>
        {t.until}
        <input name="until" type="datetime-local" />
      </label>
      <div className="controls">
        <button type="submit" className="small">
          {t.filter}
        </button>
        <button type="reset" className="small">
          {t.clear}
        </button>
      </div>
    </form>
  );
}
