/**
 * `/admin` — the operators' console (docs/operators.md, docs/screens.md): its own lazy chunk, never
 * loaded by a visitor's page, kept out of indexes (`X-Robots-Tag` from the worker and the robots meta
 * here). It first asks the admin API who is calling: with Cloudflare Access in front the call is
 * already signed in and no token is asked for; with OpenID Connect configured the console offers the
 * provider's sign-in, whose session cookie then signs the calls; otherwise the operator signs in with
 * the admin token, kept for this tab only.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { Me } from '../../../shared/me.ts';
import { http, withBase } from '../http-client.ts';
import { useHandoff } from '../store.tsx';
// The stylesheet by URL, linked by the page itself once in the browser (the worker's bundle has no
// asset URLs): a stylesheet imported as a chunk dependency would add its file to the visitors' entry
// chunk (docs/routes.md). The console shows nothing but a heading before it is in.
import adminCss from './admin.css?url';
import { type AdminApi, adminApi } from './admin-api.ts';
import { AdminFrame, CheckingPanel } from './admin-shell.tsx';
import { adminTexts } from './admin-texts.ts';
import { Dashboard } from './dashboard.tsx';
import type { LinkView } from './links/links-api.ts';
import { keepToken, signInPageOf, statusOf, storedToken } from './shared/admin-client.ts';
import { ErrorAlert } from './shared/error-alert.tsx';

/**
 * Where signing in stands: checking, asking for the token, signed in, or no admin API here. Signed in
 * keeps the API client made for the token (one object for the session) and the links the sign-in listed.
 */
type Session =
  | { state: 'checking' }
  | { state: 'signed-out'; refused: boolean; provider: string | null }
  | { state: 'signed-in'; token: string | null; api: AdminApi; links: LinkView[]; me: Me | null }
  | { state: 'unconfigured' };

/**
 * Signs in with `token` (null: Cloudflare Access, an OpenID Connect session or nothing) by listing the
 * links, of the app whose console this is: its API is under the page's base (`/@notes/api`,
 * docs/routes.md#apps). Who signed in (`/api/me`) says which panels to show; unknown, all show and
 * each answers its own refusal.
 */
async function trySession(token: string | null, base: string): Promise<Session> {
  const api = adminApi(token, withBase(http, base));
  try {
    const [links, me] = await Promise.all([api.links(), api.me().catch(() => null)]);
    return { state: 'signed-in', token, api, links, me };
  } catch (error) {
    const status = statusOf(error);
    if (status === 503) return { state: 'unconfigured' };
    return { state: 'signed-out', refused: token !== null && status === 401, provider: signInPageOf(error) };
  }
}

export function Component() {
  const { language, base } = useHandoff();
  const t = adminTexts(language);
  const [session, setSession] = useState<Session>({ state: 'checking' });
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    setMounted(true);
    void trySession(storedToken(), base).then((next) => {
      if (next.state === 'signed-out') keepToken(null);
      setSession(next.state === 'signed-out' ? { ...next, refused: false } : next);
    });
  }, [base]);

  const signIn = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget).get('token') ?? '').trim();
    if (!token) return;
    const next = await trySession(token, base);
    if (next.state === 'signed-in') keepToken(token);
    setSession(next);
  };
  const signOut = () => {
    keepToken(null);
    setSession({ state: 'signed-out', refused: false, provider: null });
  };
  // An OpenID Connect session ends at the worker (its cookie is HttpOnly); the console then asks again.
  const endSession = async (api: AdminApi, path: string) => {
    await api.signOut(path).catch(() => undefined);
    setSession(await trySession(null, base));
  };
  const signOutOf = (signedIn: Extract<Session, { state: 'signed-in' }>) => {
    if (signedIn.token) return signOut;
    const path = signedIn.me?.signOut;
    return path ? () => void endSession(signedIn.api, path) : undefined;
  };

  return (
    <AdminFrame session={session.state}>
      {mounted ? <link rel="stylesheet" href={adminCss} precedence="default" /> : null}
      {session.state === 'signed-in' ? (
        <Dashboard
          api={session.api}
          initialLinks={session.links}
          me={session.me}
          t={t}
          language={language}
          onSignOut={signOutOf(session)}
        />
      ) : session.state === 'checking' ? (
        // What the worker rendered (admin-shell.tsx): the first render hydrates it as it is.
        <CheckingPanel language={language} />
      ) : (
        <section className="panel sign-in">
          <h1>{t.heading}</h1>
          {session.state === 'unconfigured' ? <p className="error">{t.unconfigured}</p> : null}
          {session.state === 'signed-out' ? (
            <SignInForm t={t} refused={session.refused} provider={session.provider} onSubmit={signIn} />
          ) : null}
        </section>
      )}
    </AdminFrame>
  );
}

/** The provider's sign-in link when there is one (`provider`: its path), and the admin token's form. */
function SignInForm({
  t,
  refused,
  provider,
  onSubmit,
}: {
  t: ReturnType<typeof adminTexts>;
  refused: boolean;
  provider: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  // Back to this very view (range, drill-down) once signed in.
  const back = provider ? `${provider}?return=${encodeURIComponent(location.pathname + location.search)}` : null;
  return (
    <form onSubmit={onSubmit}>
      <h2>{t.signInHeading}</h2>
      {back ? (
        <p>
          <a className="button" href={back} data-sign-in="provider">
            {t.signInWithProvider}
          </a>
        </p>
      ) : null}
      {back ? <p>{t.orToken}</p> : null}
      <label>
        {t.tokenLabel}
        <input name="token" type="password" autoComplete="current-password" required />
      </label>
      <ErrorAlert message={refused ? t.wrongToken : null} />
      <button type="submit" className={back ? undefined : 'primary'}>
        {t.signIn}
      </button>
    </form>
  );
}
