/**
 * The visitor id and the fingerprint id, each with where it came from (stored, trace, fingerprintjs,
 * temporary: said in the page's language, the raw source in `data-source`), as rows of the `/test` diagnostics table (docs/screens.md). The server renders them
 * pending, saying so (a dash would read as "no id"); the browser fills them in once it has resolved
 * the ids (docs/identity.md).
 */
import type { FingerprintIdSource, VisitorIdSource } from '../../../shared/identity.ts';
import type { Language } from '../../../shared/texts.ts';
import { useHandoff, useLearned } from '../store.tsx';

type Source = VisitorIdSource | FingerprintIdSource;

const TEXTS: Record<Language, { pending: string; sources: Record<Source, string> }> = {
  en: {
    pending: 'Resolving…',
    sources: {
      stored: 'stored on this device',
      trace: 'from /api/trace',
      fingerprintjs: 'from FingerprintJS',
      temporary: 'temporary, not stored',
    },
  },
  'zh-CN': {
    pending: '获取中…',
    sources: {
      stored: '本机已保存',
      trace: '来自 /api/trace',
      fingerprintjs: '来自 FingerprintJS',
      temporary: '临时，未保存',
    },
  },
};

/** Two `<tr>`s for the diagnostics table's `<tbody>`. */
export function IdentityRows() {
  const { language } = useHandoff();
  const { identity } = useLearned();
  const { pending, sources } = TEXTS[language];
  const rows = [
    { name: 'visitor', label: 'visitorId', id: identity.visitorId, source: identity.visitorIdSource },
    { name: 'fingerprint', label: 'fingerprintId', id: identity.fingerprintId, source: identity.fingerprintIdSource },
  ];
  return rows.map(({ name, label, id, source }) => (
    <tr key={name} data-identity={name} data-source={source ?? 'pending'}>
      <th scope="row">{label}</th>
      <td>
        {id ? <code className="identity-id">{id}</code> : <span className="identity-pending">{pending}</span>}
        {source && <span className="identity-source">{sources[source]}</span>}
      </td>
    </tr>
  ));
}
