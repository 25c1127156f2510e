/**
 * The app's privacy requests (docs/privacy.md#requests-erasure-and-access): when each was received
 * (the operator's zone), its type, identity and status, by when it is due or when it completed, and
 * its signed receipt behind Show — each store and place with how many rows went (or were found), what
 * is kept on purpose — with the receipt and an access request's data saved as JSON, and Cancel for a
 * pending one.
 */
import { DataTable } from '../shared/data-table.tsx';
import { timeIn } from '../shared/zoned-time.ts';
import { type PrivacyStatus, type Receipt, saveJson } from './privacy-api.ts';
import type { PrivacyTexts } from './privacy-texts.ts';

/** A receipt as read: its lines, what is kept and why, and how it is checked. */
function ReceiptView({ receipt, t }: { receipt: Receipt; t: PrivacyTexts }) {
  const lines = receipt.receipt.lines.filter((line) => line.count > 0);
  return (
    <details className="privacy-receipt">
      <summary>{t.showReceipt}</summary>
      {lines.length === 0 ? (
        <p className="empty">{t.nothingFound}</p>
      ) : (
        <dl className="receipt-lines">
          {lines.map((line) => (
            <div key={`${line.store} ${line.where}`}>
              <dt>
                {line.store} <code>{line.where}</code>
              </dt>
              <dd title={t.count}>{line.count}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="hint">{t.kept}:</p>
      <ul className="receipt-kept">
        {receipt.receipt.kept.map((kept) => (
          <li key={kept.where}>
            <code>{kept.where}</code> — {kept.why}
          </li>
        ))}
      </ul>
      <p className="hint">{t.signed}</p>
    </details>
  );
}

/** A request's actions: its receipt and data saved as JSON, Cancel while pending. */
function Actions({
  request,
  t,
  onCancel,
  onData,
}: {
  request: PrivacyStatus;
  t: PrivacyTexts;
  onCancel: ((id: string) => void) | null;
  onData: (id: string) => void;
}) {
  const id = request.subject_request_id;
  const { receipt } = request;
  return (
    <div className="row-actions">
      {receipt ? (
        <button type="button" className="small" onClick={() => saveJson(`receipt-${id}.json`, receipt)}>
          {t.downloadReceipt}
        </button>
      ) : null}
      {request.results_url ? (
        <button type="button" className="small" onClick={() => onData(id)}>
          {t.downloadData}
        </button>
      ) : null}
      {onCancel && request.request_status === 'pending' ? (
        <button type="button" className="small" onClick={() => onCancel(id)}>
          {t.cancel}
        </button>
      ) : null}
    </div>
  );
}

export function PrivacyTable({
  requests,
  t,
  zone,
  onCancel,
  onData,
}: {
  requests: PrivacyStatus[];
  t: PrivacyTexts;
  zone: string;
  /** Cancels a pending request; null when the caller may not (`privacy:write`). */
  onCancel: ((id: string) => void) | null;
  onData: (id: string) => void;
}) {
  return (
    <DataTable
      className="privacy-table"
      head={[
        `${t.received} (${zone})`,
        t.type,
        t.identityType,
        t.status,
        `${t.due} / ${t.completed}`,
        t.receipt,
        t.actions,
      ]}
      empty={t.noRequests}
      rows={requests.map((request) => (
        <tr
          key={request.subject_request_id}
          data-request={request.subject_request_id}
          data-status={request.request_status}
        >
          <td>{timeIn(zone, request.received_time)}</td>
          <td>{t.types[request.subject_request_type]}</td>
          <td>{t.identities[request.identity_type]}</td>
          <td className={`status ${request.request_status}`}>{t.statuses[request.request_status]}</td>
          <td>{timeIn(zone, request.completed_time ?? request.expected_completion_time)}</td>
          <td className="receipt-cell">{request.receipt ? <ReceiptView receipt={request.receipt} t={t} /> : '—'}</td>
          <td>
            <Actions request={request} t={t} onCancel={onCancel} onData={onData} />
          </td>
        </tr>
      ))}
    />
  );
}
