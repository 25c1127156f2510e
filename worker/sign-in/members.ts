/**
 * A signed-in identity's role in an app (docs/operators.md#roles), from D1 `members`
 * (migrations/0012_team.sql). An app with no members yet lets anyone signed in act as its owner, as
 * before members existed; once it has one, only its members get in. Subjects are kept with ASCII
 * letters lower-cased (`subjectKey`): an email is one person however the provider cases it.
 */
import { isRole, type Role } from '../../shared/roles.ts';
import type { Operator } from '../env.ts';

/**
 * How a subject is kept and looked up: trimmed, its ASCII letters lower-cased (an email's domain and,
 * in practice, its local part). Other letters stay as given: Unicode's case folding makes distinct
 * identities one (`\u212Aate@…`, the Kelvin sign, folds to `kate@…`), which would hand one a member's role.
 */
export const subjectKey = (subject: string): string =>
  subject.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * Whether `operator` is a person whose role comes from `members`: signed in (Access, a session) or
 * with the provider's JWT as a bearer (operator-auth.ts); not the admin token, not an API key.
 */
export const isPerson = (operator: Operator): boolean => operator.via === 'sign-in' || operator.via === 'oidc-token';

/** The role of `subject` in `app`: its member row's, `owner` while the app has none, null for a stranger. */
export async function roleOf(db: D1Database, app: string, subject: string): Promise<Role | null> {
  const row = await db
    .prepare(
      'SELECT (SELECT role FROM members WHERE app = ?1 AND subject = ?2) AS role, ' +
        'EXISTS (SELECT 1 FROM members WHERE app = ?1) AS any',
    )
    .bind(app, subjectKey(subject))
    .first<{ role: string | null; any: number }>();
  if (!row?.any) return 'owner';
  return row.role !== null && isRole(row.role) ? row.role : null;
}

/**
 * Of `apps`, those `subject` holds a role in — a member of it, or any app with no member yet — in one
 * query, however many apps the registry lists.
 */
export async function appsWithRole(db: D1Database, subject: string, apps: readonly string[]): Promise<Set<string>> {
  const { results } = await db
    .prepare('SELECT app, MAX(subject = ?) AS mine FROM members GROUP BY app')
    .bind(subjectKey(subject))
    .all<{ app: string; mine: number }>();
  const staffed = new Map(results.map((row) => [row.app, row.mine === 1]));
  return new Set(apps.filter((app) => staffed.get(app) ?? true));
}
