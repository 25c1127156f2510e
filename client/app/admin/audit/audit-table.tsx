/**
 * The audit log's entries (docs/operators.md#audit-log): when (the operator's zone), who, via, kind,
 * action and target, and each change's before and after, field by field, behind Show.
 */
import { DataTable } from '../shared/data-table.tsx';
import { timeIn } from '../shared/zoned-time.ts';
import type { AuditEntryView } from './audit-api.ts';
import { fieldChanges, shown } from './audit-diff.ts';
import type { AuditTexts } from './audit-texts.ts';

/** One entry's change: the fields that differ, before and after. */
function ChangeView({ entry, t, zone }: { entry: AuditEntryView; t: AuditTexts; zone: string }) {
  const changes = fieldChanges(entry.before, entry.after);
  const time = (ms: number) => timeIn(zone, new Date(ms).toISOString());
  return (
    <details className="audit-change">
      <summary>{t.showChange}</summary>
      {changes.length === 0 ? (
        <p className="empty">{t.noChange}</p>
      ) : (
        <dl>
          {changes.map((change) => (
            <div key={change.path} className="audit-field">
              <dt>
                <code>{change.path}</code>
              </dt>
              <dd className="before" title={t.before}>
                {change.before === undefined ? '—' : <del>{shown(change.path, change.before, time)}</del>}
              </dd>
              <dd className="after" title={t.after}>
                {change.after === undefined ? '—' : <ins>{shown(change.path, change.after, time)}</ins>}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </details>
  );
}

export function AuditTable({ entries, t, zone }: { entries: AuditEntryView[]; t: AuditTexts; zone: string }) {
  return (
    <DataTable
      className="audit-table"
      head={[`${t.when} (${zone})`, t.who, t.via, t.kind, t.action, t.target, t.change]}
      empty={t.noEntries}
      rows={entries.map((entry) => (
        <tr key={entry.seq} data-seq={entry.seq} data-kind={entry.kind}>
          <td>{timeIn(zone, new Date(entry.at).toISOString())}</td>
          <td>{entry.actor}</td>
          <td>{t.vias[entry.via] ?? entry.via}</td>
          <td>{t.kinds[entry.kind] ?? entry.kind}</td>
          <td>{t.actions[entry.action] ?? entry.action}</td>
          <td>
            <code>{entry.target}</code>
          </td>
          <td>
            <ChangeView entry={entry} t={t} zone={zone} />
          </td>
        </tr>
      ))}
    />
  );
}
