/**
 * The visitor id and the fingerprint id, each with where it came from (stored, trace, fingerprintjs,
 * temporary), as rows of the `/test` diagnostics table (docs/screens.md). The server renders them
 * pending, saying so (a dash would read as "no id"); the browser fills them in once it has resolved
 * the ids (docs/identity.md).
 */
import type { Language } from '../../../shared/texts.ts';
import { useHandoff, useLearned } from '../store.tsx';

const PENDING: Record<Language, string> = { en: 'Resolving…', 'zh-CN': '获取中…' };

/** Two `<tr>`s for the diagnostics table's `<tbody>`. */
export function IdentityRows() {
  const { language } = useHandoff();
  const { identity } = useLearned();
  const rows = [
    { name: 'visitor', label: 'visitorId', id: identity.visitorId, source: identity.visitorIdSource },
    { name: 'fingerprint', label: 'fingerprintId', id: identity.fingerprintId, source: identity.fingerprintIdSource },
  ];
  return rows.map(({ name, label, id, source }) => (
    <tr key={name} data-identity={name} data-source={source ?? 'pending'}>
      <th scope="row">{label}</th>
      <td>
        {id ? <code className="identity-id">{id}</code> : <span className="identity-pending">{PENDING[language]}</span>}
        {source && <span className="identity-source">{source}</span>}
      </td>
    </tr>
  ));
}
