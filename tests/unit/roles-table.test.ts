/**
 * The roles table in docs/operators.md#roles is the code's (shared/roles.ts): rendered by
 * `rolesTable`, so a scope or role changed in one place fails here until the other follows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLE_SCOPES, ROLES, rolesTable, SCOPES } from '../../shared/roles.ts';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'operators.md'), 'utf8');
const MARK = '<!-- roles-table: rendered from shared/roles.ts -->\n';

describe('the roles table', () => {
  it('in docs/operators.md is the one shared/roles.ts renders', () => {
    const start = doc.indexOf(MARK);
    expect(start).toBeGreaterThan(-1);
    const written = doc.slice(start + MARK.length).split('\n\n')[0];
    expect(written).toBe(rolesTable());
  });

  it('ranks the roles: each holds every scope of the roles below it', () => {
    for (const [at, role] of ROLES.entries()) {
      for (const below of ROLES.slice(at + 1)) {
        expect(
          ROLE_SCOPES[below].filter((scope) => !ROLE_SCOPES[role].includes(scope)),
          `${role} ⊇ ${below}`,
        ).toEqual([]);
      }
    }
    expect(ROLE_SCOPES.owner).toEqual(SCOPES);
  });
});
