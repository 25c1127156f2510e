/**
 * A link's password and rules in the links room (docs/operators.md#the-console,
 * docs/smart-links.md#links): whether it asks for a password, with a form to set or change it and a
 * button to remove it; and its rules, one per line (`when => action`, shared/rule-line.ts), saved
 * through `PATCH /api/links/<slug>`. A line that spells no rule is named before anything is sent; a
 * rule the worker refuses is shown as the worker says it, with its place.
 */
import { type FormEvent, useState } from 'react';
import { lineOfRule, ruleLines } from '../../../../shared/rule-line.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { LinksApi, LinkView } from './links-api.ts';
import type { LinksTexts } from './links-texts.ts';

/** Whether the link asks for a password; set, changed or removed in place (without `onChanged`, only said). */
export function PasswordControl({
  api,
  link,
  t,
  onChanged,
}: {
  api: LinksApi;
  link: LinkView;
  t: LinksTexts;
  /** The link as the API answers it after a change; absent for an operator who may not change links. */
  onChanged?: (link: LinkView) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState('');
  const save = async (password: string | null) => {
    setError('');
    try {
      onChanged?.(await api.setLinkPassword(link.slug, password));
      setEditing(false);
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  return (
    <div className="link-password">
      {editing ? (
        <PasswordForm slug={link.slug} t={t} onSave={save} onCancel={() => setEditing(false)} />
      ) : (
        <>
          <span data-password={link.hasPassword ? 'set' : 'none'}>
            {link.hasPassword ? t.passwordSet : t.noPassword}
          </span>{' '}
          {onChanged ? (
            <span className="row-actions">
              <button
                type="button"
                className="small"
                aria-label={`${t.setPassword} /s/${link.slug}`}
                onClick={() => setEditing(true)}
              >
                {t.setPassword}
              </button>
              {link.hasPassword ? (
                <button
                  type="button"
                  className="small"
                  aria-label={`${t.removePassword} /s/${link.slug}`}
                  onClick={() => void save(null)}
                >
                  {t.removePassword}
                </button>
              ) : null}
            </span>
          ) : null}
        </>
      )}
      <ErrorAlert message={error} />
    </div>
  );
}

/** The form that sets or changes a link's password. */
function PasswordForm({
  slug,
  t,
  onSave,
  onCancel,
}: {
  slug: string;
  t: LinksTexts;
  onSave: (password: string) => Promise<void>;
  onCancel: () => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void onSave(String(new FormData(event.currentTarget).get('password') ?? ''));
  };
  return (
    <form className="expiry-form" onSubmit={submit}>
      <input
        type="password"
        name="password"
        required
        minLength={8}
        maxLength={128}
        autoComplete="new-password"
        aria-label={`${t.password} /s/${slug}`}
      />
      <div className="row-actions">
        <button type="submit" className="small primary">
          {t.save}
        </button>
        <button type="button" className="small" onClick={onCancel}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}

/** The link's rules as lines to edit, saved whole (without `onChanged`, only read). */
export function RulesEditor({
  api,
  link,
  t,
  onChanged,
}: {
  api: LinksApi;
  link: LinkView;
  t: LinksTexts;
  /** The link as the API answers it after a change; absent for an operator who may not change links. */
  onChanged?: (link: LinkView) => void;
}) {
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError('');
    setSaved(false);
    const parsed = ruleLines(String(new FormData(event.currentTarget).get('rules') ?? ''));
    if (!parsed.ok) {
      setError(t.ruleLine(parsed.line, parsed.reason));
      return;
    }
    try {
      onChanged?.(await api.setLinkRules(link.slug, parsed.rules));
      setSaved(true);
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  return (
    <details className="link-rules">
      <summary>
        {t.rules} ({link.rules.length})
      </summary>
      <form className="rules-form" onSubmit={(event) => void submit(event)}>
        <textarea
          name="rules"
          rows={Math.max(3, link.rules.length + 1)}
          spellCheck={false}
          aria-label={`${t.rules} /s/${link.slug}`}
          aria-describedby={`rules-hint-${link.slug}`}
          defaultValue={link.rules.map(lineOfRule).join('\n')}
          readOnly={!onChanged}
        />
        <small id={`rules-hint-${link.slug}`}>{t.rulesHint}</small>
        {onChanged ? (
          <button type="submit" className="small primary">
            {t.saveRules}
          </button>
        ) : null}
        {saved ? <span role="status">{t.rulesSaved}</span> : null}
      </form>
      <ErrorAlert message={error} />
    </details>
  );
}
