/**
 * An app's members and their roles (docs/operators.md#members), in D1 `members`. Each change is
 * committed with its audit entry (kind `member`). The last owner of an app can be neither demoted nor
 * removed: the guard is in the statement itself, so two changes at once cannot both pass it.
 */
import type { Role } from '../../shared/roles.ts';
import type { MemberView } from '../../shared/team.ts';
import type { CommitChange } from '../facts.ts';

interface MemberRow {
  subject: string;
  role: Role;
  created_at: number;
  updated_at: number;
}

const viewOf = (row: MemberRow): MemberView => ({
  subject: row.subject,
  role: row.role,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** The statement's condition that the row may stop being an owner: it is not one, or another owner remains. */
const NOT_LAST_OWNER =
  "(role <> 'owner' OR (SELECT COUNT(*) FROM members AS other WHERE other.app = members.app AND other.role = 'owner') > 1)";

/** The app's members, owners first. */
export async function listMembers(db: D1Database, app: string): Promise<MemberView[]> {
  const { results } = await db
    .prepare(
      "SELECT subject, role, created_at, updated_at FROM members WHERE app = ? ORDER BY CASE role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'editor' THEN 2 WHEN 'analyst' THEN 3 ELSE 4 END, subject",
    )
    .bind(app)
    .all<MemberRow>();
  return results.map(viewOf);
}

/** The member `subject` of `app`, or null. */
export async function memberOf(db: D1Database, app: string, subject: string): Promise<MemberView | null> {
  const row = await db
    .prepare('SELECT subject, role, created_at, updated_at FROM members WHERE app = ? AND subject = ?')
    .bind(app, subject)
    .first<MemberRow>();
  return row ? viewOf(row) : null;
}

/** Whether `app` has any member. */
export async function hasMembers(db: D1Database, app: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM members WHERE app = ? LIMIT 1').bind(app).first()) !== null;
}

/** Adds `subject` with `role`; false when it was added meanwhile. */
export async function addMember(
  db: D1Database,
  app: string,
  subject: string,
  role: Role,
  commit: CommitChange,
): Promise<boolean> {
  const now = Date.now();
  const insert = db
    .prepare('INSERT OR IGNORE INTO members (app, subject, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
    .bind(app, subject, role, now, now);
  const after = viewOf({ subject, role, created_at: now, updated_at: now });
  const [result] = await commit([insert], { kind: 'member', action: 'created', target: subject, before: null, after });
  return (result?.meta.changes ?? 0) > 0;
}

/** Gives `member` the role `role`; false when it changed meanwhile or it is the last owner. */
export async function changeRole(
  db: D1Database,
  app: string,
  member: MemberView,
  role: Role,
  commit: CommitChange,
): Promise<boolean> {
  const now = Date.now();
  const guard = role === 'owner' ? '' : ` AND ${NOT_LAST_OWNER}`;
  const update = db
    .prepare(`UPDATE members SET role = ?, updated_at = ? WHERE app = ? AND subject = ? AND role = ?${guard}`)
    .bind(role, now, app, member.subject, member.role);
  const after = { ...member, role, updatedAt: new Date(now).toISOString() };
  const [result] = await commit([update], {
    kind: 'member',
    action: 'updated',
    target: member.subject,
    before: member,
    after,
  });
  return (result?.meta.changes ?? 0) > 0;
}

/** Removes `member`; false when it changed meanwhile or it is the last owner. */
export async function removeMember(
  db: D1Database,
  app: string,
  member: MemberView,
  commit: CommitChange,
): Promise<boolean> {
  const remove = db
    .prepare(`DELETE FROM members WHERE app = ? AND subject = ? AND role = ? AND ${NOT_LAST_OWNER}`)
    .bind(app, member.subject, member.role);
  const [result] = await commit([remove], {
    kind: 'member',
    action: 'deleted',
    target: member.subject,
    before: member,
    after: null,
  });
  return (result?.meta.changes ?? 0) > 0;
}

/** Whether `member` is the app's only owner. */
export async function isLastOwner(db: D1Database, app: string, member: MemberView): Promise<boolean> {
  if (member.role !== 'owner') return false;
  const row = await db
    .prepare("SELECT COUNT(*) AS owners FROM members WHERE app = ? AND role = 'owner'")
    .bind(app)
    .first<{ owners: number }>();
  return (row?.owners ?? 0) <= 1;
}
