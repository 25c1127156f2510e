/**
 * Where data lives (docs/privacy.md#where-data-lives): `JURISDICTION` is `eu`, `fedramp` or empty
 * (none). The deploy script creates and binds D1 and R2 in it (scripts/lib/jurisdiction.ts); the
 * worker reaches its Durable Objects through the namespace of that jurisdiction, so each object is
 * created, and its storage kept, there.
 */

/** The jurisdictions Cloudflare offers for D1, Durable Objects and R2 alike. */
export const JURISDICTIONS = ['eu', 'fedramp'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

export type JurisdictionResult = { ok: true; jurisdiction: Jurisdiction | undefined } | { ok: false; problem: string };

/** `JURISDICTION`'s text: `eu`, `fedramp`, or empty for none; anything else is refused. */
export function parseJurisdiction(text: string | undefined): JurisdictionResult {
  const value = text?.trim() ?? '';
  if (value === '') return { ok: true, jurisdiction: undefined };
  if ((JURISDICTIONS as readonly string[]).includes(value)) return { ok: true, jurisdiction: value as Jurisdiction };
  return {
    ok: false,
    problem: `JURISDICTION: ${JSON.stringify(value)} is not one of ${JURISDICTIONS.join(', ')} (or empty for none)`,
  };
}

/** `namespace` scoped to `jurisdiction`, or itself when none is set. */
export function inJurisdiction<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  jurisdiction: Jurisdiction | undefined,
): DurableObjectNamespace<T> {
  return jurisdiction ? namespace.jurisdiction(jurisdiction) : namespace;
}
