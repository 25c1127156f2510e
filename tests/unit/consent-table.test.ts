/**
 * The consent table in docs/privacy.md ("Consent") is the code's (shared/consent.ts): rendered by
 * `consentTable`, so a signal or what it stops changed in one place fails here until the other
 * follows; and `allows` reads the same table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allows, CONSENT_EFFECTS, CONSENT_RULES, type ConsentSignal, consentTable } from '../../shared/consent.ts';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'privacy.md'), 'utf8');
const MARK = '<!-- consent-table: rendered from shared/consent.ts -->\n';

describe('the consent table', () => {
  it('in docs/privacy.md is the one shared/consent.ts renders', () => {
    const start = doc.indexOf(MARK);
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + MARK.length).split('\n\n')[0]).toBe(consentTable());
  });

  it('is what allows() decides, signal by signal and effect by effect', () => {
    const rows = consentTable().split('\n').slice(2);
    const signals = Object.keys(CONSENT_RULES) as ConsentSignal[];
    expect(rows).toHaveLength(signals.length);
    signals.forEach((signal, at) => {
      const cells = (rows[at] ?? '')
        .split('|')
        .slice(2, -1)
        .map((cell) => cell.trim());
      expect(cells).toEqual(CONSENT_EFFECTS.map((effect) => (allows([signal], effect) ? '' : 'stops')));
    });
  });

  it('allows everything without a signal, and the GPC row stops every effect', () => {
    for (const effect of CONSENT_EFFECTS) {
      expect(allows([], effect)).toBe(true);
      expect(allows(['gpc'], effect)).toBe(false);
    }
    expect(allows(['tcf-purpose-2'], 'probabilisticMatch')).toBe(true);
    expect(allows(['tcf-purpose-2'], 'thirdParty')).toBe(false);
  });
});
