/**
 * The audit log panel (docs/operators.md#audit-log): the log's entries newest first, a page at a time
 * (Older, Newer), narrowed by kind, actor, target and time range, each change's before and after, and
 * the export `npm run audit:verify` checks. Times are the operator's zone's.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { AuditApi, AuditFilter, AuditPage } from './audit-api.ts';
import { AuditFilters } from './audit-filters.tsx';
import { AuditTable } from './audit-table.tsx';
import { auditTexts } from './audit-texts.ts';

/**
 * The page of entries older than `before` (the newest page when undefined) that `filter` keeps; an
 * answer is shown only if nothing was asked since.
 */
function useAuditPage(
  api: AuditApi,
  filter: AuditFilter,
  before: number | undefined,
  fail: (failure: unknown) => void,
) {
  const [page, setPage] = useState<AuditPage | null>(null);
  const [asked, setAsked] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `asked` is a reload: Refresh asks again for the same page
  useEffect(() => {
    let stale = false;
    api.page(filter, before).then(
      (answer) => !stale && setPage(answer),
      (failure: unknown) => !stale && fail(failure),
    );
    return () => {
      stale = true;
    };
  }, [api, filter, before, fail, asked]);
  return { page, reload: () => setAsked((n) => n + 1) };
}

export function AuditPanel({ api, zone, language }: { api: AuditApi; zone: string; language: Language }) {
  const t = auditTexts(language);
  const [filter, setFilter] = useState<AuditFilter>({});
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [error, setError] = useState<string | null>(null);
  const fail = useCallback((failure: unknown) => setError(errorText(failure, t)), [t]);
  // Each page's `before`, the one shown last (undefined: the newest page): Newer goes back one.
  const before = cursors.at(-1);
  const { page, reload } = useAuditPage(api, filter, before, fail);
  const filterBy = (next: AuditFilter) => {
    setError(null);
    setFilter(next);
    setCursors([undefined]);
  };
  const exportLog = () => {
    api.downloadExport().catch(fail);
  };
  return (
    <section className="panel wide-panel audit-panel" aria-labelledby="audit-heading" id="audit">
      <h2 id="audit-heading">{t.heading}</h2>
      <p className="hint">{t.hint}</p>
      <AuditFilters t={t} zone={zone} onFilter={filterBy} />
      <ErrorAlert message={error} />
      {page === null ? <p>{t.loading}</p> : <AuditTable entries={page.entries} t={t} zone={zone} />}
      <div className="controls audit-pages">
        <button
          type="button"
          className="small"
          disabled={cursors.length < 2}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          {t.newer}
        </button>
        <button
          type="button"
          className="small"
          disabled={!page || page.next === null}
          onClick={() => page?.next != null && setCursors([...cursors, page.next])}
        >
          {t.older}
        </button>
        <button type="button" className="small" onClick={reload}>
          {t.refresh}
        </button>
        <button type="button" className="small" onClick={exportLog}>
          {t.exportLog}
        </button>
      </div>
    </section>
  );
}
