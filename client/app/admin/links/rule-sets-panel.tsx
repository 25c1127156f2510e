/**
 * The app's rule sets in the links room (docs/operators.md#the-console, docs/smart-links.md#rule-sets):
 * the named, ordered rules a campaign token runs when its signed `rules` field names the set. Each set
 * is listed with its rules as lines (`when => action`, shared/rule-line.ts, as a link's), changed and
 * saved whole with `PUT /api/rule-sets/<id>` or deleted; a form creates one. A line that spells no rule
 * is named before anything is sent; a rule the worker refuses is shown as the worker says it.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { RULE_SET_ID_PATTERN } from '../../../../shared/link-rules.ts';
import { lineOfRule, ruleLines } from '../../../../shared/rule-line.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { timeIn } from '../shared/zoned-time.ts';
import type { LinksApi, RuleSetView } from './links-api.ts';
import type { LinksTexts } from './links-texts.ts';

type RuleSetsApi = Pick<LinksApi, 'ruleSets' | 'putRuleSet' | 'deleteRuleSet'>;

/** The rules a textarea's lines spell, or the words of the first line that spells none. */
function rulesOf(text: string, t: LinksTexts) {
  const parsed = ruleLines(text);
  return parsed.ok ? parsed : { ok: false as const, said: t.ruleLine(parsed.line, parsed.reason) };
}

/** One set's rules to edit, saved whole or deleted (without `editable`, only read). */
function RuleSetRow({
  api,
  set,
  editable,
  zone,
  t,
  onSaved,
  onDeleted,
}: {
  api: RuleSetsApi;
  set: RuleSetView;
  editable: boolean;
  zone: string;
  t: LinksTexts;
  onSaved: (set: RuleSetView) => void;
  onDeleted: (id: string) => void;
}) {
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError('');
    setSaved(false);
    const parsed = rulesOf(String(new FormData(event.currentTarget).get('rules') ?? ''), t);
    if (!parsed.ok) return setError(parsed.said);
    try {
      onSaved(await api.putRuleSet(set.id, parsed.rules));
      setSaved(true);
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  const remove = async () => {
    setError('');
    try {
      await api.deleteRuleSet(set.id);
      onDeleted(set.id);
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  return (
    <li className="rule-set" data-rule-set={set.id}>
      <details>
        <summary>
          <code>{set.id}</code> ({set.rules.length}) · {t.updated} {timeIn(zone, set.updatedAt).slice(0, 16)}
        </summary>
        <form className="rules-form" onSubmit={(event) => void submit(event)}>
          <textarea
            name="rules"
            rows={Math.max(3, set.rules.length + 1)}
            spellCheck={false}
            aria-label={`${t.rules} ${set.id}`}
            defaultValue={set.rules.map(lineOfRule).join('\n')}
            readOnly={!editable}
          />
          {editable ? (
            <div className="row-actions">
              <button type="submit" className="small primary">
                {t.saveRules}
              </button>
              <button
                type="button"
                className="small"
                aria-label={`${t.deleteRuleSet} ${set.id}`}
                onClick={() => void remove()}
              >
                {t.deleteRuleSet}
              </button>
            </div>
          ) : null}
          {saved ? <span role="status">{t.rulesSaved}</span> : null}
        </form>
        <ErrorAlert message={error} />
      </details>
    </li>
  );
}

/** The form that creates a set: its id and its first rules; an id already kept is said so. */
function NewRuleSet({
  api,
  known,
  t,
  onCreated,
}: {
  api: RuleSetsApi;
  known: ReadonlySet<string>;
  t: LinksTexts;
  onCreated: (set: RuleSetView) => void;
}) {
  const [error, setError] = useState('');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const id = String(data.get('id') ?? '').trim();
    setError('');
    // PUT replaces: a set is created here only under an id not kept yet.
    if (known.has(id)) return setError(t.ruleSetTaken);
    const parsed = rulesOf(String(data.get('rules') ?? ''), t);
    if (!parsed.ok) return setError(parsed.said);
    try {
      onCreated(await api.putRuleSet(id, parsed.rules));
      form.reset();
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  return (
    <form className="rule-set-form rules-form" onSubmit={(event) => void submit(event)}>
      <strong>{t.newRuleSet}</strong>
      <label>
        {t.ruleSetId}
        <input
          name="id"
          required
          pattern={RULE_SET_ID_PATTERN}
          maxLength={32}
          placeholder={t.ruleSetIdHint}
          autoComplete="off"
        />
      </label>
      <label>
        {t.rules}
        <textarea name="rules" rows={3} required spellCheck={false} placeholder={t.rulesHint} />
      </label>
      <button type="submit" className="small primary">
        {t.createRuleSet}
      </button>
      <ErrorAlert message={error} />
    </form>
  );
}

/** The app's rule sets, read when the panel is drawn; `editable` when the operator may change links. */
export function RuleSetsPanel({
  api,
  editable,
  zone,
  t,
}: {
  api: RuleSetsApi;
  editable: boolean;
  zone: string;
  t: LinksTexts;
}) {
  const [sets, setSets] = useState<RuleSetView[] | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  useEffect(() => {
    let current = true;
    api.ruleSets().then(
      (read) => current && setSets(read),
      (failure: unknown) => current && setError(errorText(failure, t)),
    );
    return () => {
      current = false;
    };
  }, [api, t]);
  const kept = sets ?? [];
  const put = (set: RuleSetView) =>
    setSets([...kept.filter(({ id }) => id !== set.id), set].sort((a, b) => (a.id < b.id ? -1 : 1)));
  return (
    <section className="panel rule-sets-panel" aria-labelledby="rule-sets-heading">
      <h2 id="rule-sets-heading">{t.ruleSets}</h2>
      <p className="hint">{t.ruleSetsHint}</p>
      <ErrorAlert message={error} />
      {note ? <p role="status">{note}</p> : null}
      {sets === null ? null : kept.length === 0 ? (
        <p>{t.noRuleSets}</p>
      ) : (
        <ul className="rule-sets">
          {kept.map((set) => (
            <RuleSetRow
              key={set.id}
              {...{ api, set, editable, zone, t }}
              onSaved={put}
              onDeleted={(id) => {
                setSets(kept.filter((other) => other.id !== id));
                setNote(t.ruleSetDeleted(id));
              }}
            />
          ))}
        </ul>
      )}
      {editable ? (
        <NewRuleSet
          api={api}
          known={new Set(kept.map(({ id }) => id))}
          t={t}
          onCreated={(set) => {
            setNote('');
            put(set);
          }}
        />
      ) : null}
    </section>
  );
}
