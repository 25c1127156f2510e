/**
 * The audit room's calls (docs/operators.md#audit-log): `GET /api/audit`, a filtered page of entries
 * newest first, and `GET /api/audit/export`, every entry as NDJSON, saved as a file. An entry is the
 * API's (worker/audit/contract.ts `AuditEntrySchema`).
 */
import type { HttpClient } from '../../http-client.ts';

/** The kinds of change the log keeps (worker/facts.ts `CHANGE_KINDS`). */
export const AUDIT_KINDS = ['config', 'link', 'rule-set', 'webhook', 'test-device', 'key', 'member', 'role'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** One entry as `GET /api/audit` answers it. */
export interface AuditEntryView {
  seq: number;
  /** When, epoch ms. */
  at: number;
  actor: string;
  via: string;
  app: string;
  kind: AuditKind;
  action: 'created' | 'updated' | 'deleted' | 'rotated';
  target: string;
  before: unknown;
  after: unknown;
  prevHash: string;
  hash: string;
}

/** What the page is narrowed to: each filter the API takes, times as ISO 8601. */
export interface AuditFilter {
  kind?: AuditKind;
  actor?: string;
  target?: string;
  from?: string;
  to?: string;
}

export interface AuditPage {
  entries: AuditEntryView[];
  /** The `before` of the next (older) page; null on the last. */
  next: number | null;
}

/** Entries on one page of the console. */
export const AUDIT_PAGE_SIZE = 25;

/** The audit calls, through `client` with `headers`. */
export function auditApi(client: HttpClient, headers: Record<string, string>) {
  return {
    /** The page of entries older than `before` (the newest without it) that `filter` keeps. */
    page(filter: AuditFilter, before?: number): Promise<AuditPage> {
      const query = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
      for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
      if (before !== undefined) query.set('before', String(before));
      return client<AuditPage>(`/api/audit?${query}`, { headers });
    },
    /** Every entry as the NDJSON file `npm run audit:verify` checks, saved as `audit-<day>.ndjson`. */
    async downloadExport(): Promise<void> {
      // NDJSON is neither JSON nor text/*: the client hands it over as a Blob.
      const body = await client<Blob | string>('/api/audit/export', { headers });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([body], { type: 'application/x-ndjson' }));
      link.download = `audit-${new Date().toISOString().slice(0, 10)}.ndjson`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    },
  };
}

export type AuditApi = ReturnType<typeof auditApi>;
