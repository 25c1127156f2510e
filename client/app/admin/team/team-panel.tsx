/**
 * The team panel (docs/operators.md#roles): the app's members with their roles (add, change, remove)
 * and its API keys (make one with its scopes, expiry and rate; revoke one). A new key is shown once,
 * with a button that copies it; the worker keeps only its hash.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ROLES, SCOPES } from '../../../../shared/roles.ts';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { SharedTexts } from '../shared/shared-texts.ts';
import type { KeyView, MemberView, NewKey, Role, Scope, TeamApi } from './team-api.ts';
import { type TeamTexts, teamTexts } from './team-texts.ts';

/** The members and keys, and a change that lists them again after; a failure is said instead. */
function useTeam(api: TeamApi, t: SharedTexts) {
  const [members, setMembers] = useState<MemberView[]>([]);
  const [keys, setKeys] = useState<KeyView[]>([]);
  const [error, setError] = useState('');
  const load = useCallback(async () => {
    // Each list alone: a caller may read one and not the other (its scopes).
    const [listed, made] = await Promise.allSettled([api.members(), api.keys()]);
    if (listed.status === 'fulfilled') setMembers(listed.value);
    if (made.status === 'fulfilled') setKeys(made.value);
    const refused = [listed, made].find((result) => result.status === 'rejected');
    setError(refused ? errorText(refused.reason, t) : '');
  }, [api, t]);
  useEffect(() => {
    void load();
  }, [load]);
  const act = async (change: () => Promise<void>) => {
    try {
      await change();
      await load();
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  return { members, keys, error, act };
}

export function TeamPanel({ api, t, language }: { api: TeamApi; t: SharedTexts; language: Language }) {
  const words = teamTexts(language);
  const { members, keys, error, act } = useTeam(api, t);
  const [made, setMade] = useState<NewKey | null>(null);
  return (
    <section className="panel wide-panel team-panel" aria-labelledby="team-heading">
      <h2 id="team-heading">{words.heading}</h2>
      <ErrorAlert message={error} />
      <h3>{words.members}</h3>
      <p className="hint">{words.membersHint}</p>
      <MemberForm words={words} onSave={(subject, role) => act(async () => void (await api.setRole(subject, role)))} />
      {members.length === 0 ? <p className="empty">{words.noMembers}</p> : null}
      <ul className="test-list member-list">
        {members.map((member) => (
          <li key={member.subject} data-member={member.subject}>
            <div className="test-head">
              <span>{member.subject}</span>
              <span>{words.roles[member.role]}</span>
              <button type="button" onClick={() => void act(() => api.removeMember(member.subject))}>
                {words.remove}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <h3>{words.keys}</h3>
      <KeyForm words={words} onMake={(body) => act(async () => setMade(await api.makeKey(body)))} />
      {made ? <KeyOnce made={made} words={words} /> : null}
      <KeyList keys={keys} words={words} onRevoke={(id) => void act(() => api.revokeKey(id))} />
    </section>
  );
}

/** Adds a member, or gives one another role. */
function MemberForm({ words, onSave }: { words: TeamTexts; onSave: (subject: string, role: Role) => Promise<void> }) {
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    await onSave(String(data.get('subject') ?? '').trim(), String(data.get('role')) as Role);
    form.reset();
  };
  return (
    <form onSubmit={(event) => void save(event)} aria-label={words.members}>
      <label>
        {words.subject}
        <input name="subject" required maxLength={200} autoComplete="off" />
      </label>
      <label>
        {words.role}
        <select name="role" defaultValue="viewer">
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {words.roles[role]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">{words.save}</button>
    </form>
  );
}

/** Makes a key: its name, scopes, optional expiry (a day, UTC) and rate. */
function KeyForm({
  words,
  onMake,
}: {
  words: TeamTexts;
  onMake: (body: { name: string; scopes: Scope[]; expiresAt?: string; rateLimit?: number }) => Promise<void>;
}) {
  const make = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const day = String(data.get('expiresAt') ?? '');
    const rate = String(data.get('rateLimit') ?? '');
    await onMake({
      name: String(data.get('name') ?? '').trim(),
      scopes: data.getAll('scopes').map(String) as Scope[],
      ...(day ? { expiresAt: `${day}T00:00:00Z` } : {}),
      ...(rate ? { rateLimit: Number(rate) } : {}),
    });
    form.reset();
  };
  return (
    <form onSubmit={(event) => void make(event)} aria-label={words.keys}>
      <label>
        {words.keyName}
        <input name="name" required maxLength={60} autoComplete="off" />
      </label>
      <fieldset className="scopes">
        <legend>{words.scopes}</legend>
        {SCOPES.map((scope) => (
          <label key={scope}>
            <input type="checkbox" name="scopes" value={scope} /> {scope}
          </label>
        ))}
      </fieldset>
      <label>
        {words.expiresAt}
        <input name="expiresAt" type="date" />
      </label>
      <label>
        {words.rateLimit}
        <input name="rateLimit" type="number" min={1} max={10000} />
      </label>
      <button type="submit">{words.makeKey}</button>
    </form>
  );
}

/** The key just made, shown this once, with a button that copies it. */
function KeyOnce({ made, words }: { made: NewKey; words: TeamTexts }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(made.key).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <p className="secret" role="status">
      {words.keyOnce} <code data-new-key>{made.key}</code>{' '}
      <button type="button" className="small" onClick={copy}>
        {copied ? words.copied : words.copy}
      </button>
    </p>
  );
}

/** The app's keys: name, scopes, expiry; revoke, or when it was revoked. */
function KeyList({ keys, words, onRevoke }: { keys: KeyView[]; words: TeamTexts; onRevoke: (id: string) => void }) {
  if (keys.length === 0) return <p className="empty">{words.noKeys}</p>;
  return (
    <ul className="test-list key-list">
      {keys.map((key) => (
        <li key={key.id} data-key={key.id}>
          <div className="test-head">
            <span>{key.name}</span>
            <span>{key.scopes.join(' ')}</span>
            <span>
              {words.expires}: {key.expiresAt?.slice(0, 10) ?? words.never}
            </span>
            {key.revokedAt ? (
              <span>
                {words.revoked} {key.revokedAt.slice(0, 10)}
              </span>
            ) : (
              <button type="button" onClick={() => onRevoke(key.id)}>
                {words.revoke}
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
