/**
 * The consent strings' reading (shared/consent-strings.ts) against the IAB's own libraries,
 * `@iabtcf/core` and `@iabgpp/cmpapi`: over random consents encoded by `GppModel`, the signals read
 * from the bits are those the libraries' decoded fields give; what the libraries cannot decode is
 * `unreadable`.
 */
import { GppModel } from '@iabgpp/cmpapi';
import { TCString } from '@iabtcf/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ConsentSignal, plainSignals } from '../../shared/consent.ts';
import { consentOf, gppStringSignals, tcfStringSignals } from '../../shared/consent-strings.ts';

/** The signals of TCF fields as the libraries decode them. */
function tcfOracle(has: (n: number) => boolean, opted: (n: number) => boolean): ConsentSignal[] {
  const signals: ConsentSignal[] = [];
  if (!has(1)) signals.push('tcf-purpose-1');
  if (!has(2)) signals.push('tcf-purpose-2');
  if (!has(7)) signals.push('tcf-purpose-7');
  if (!opted(2)) signals.push('tcf-special-feature-2');
  return signals;
}

function gppOracle(text: string): ConsentSignal[] {
  const sections = new GppModel(text).toObject() as Record<string, Record<string, unknown>>;
  const signals = new Set<ConsentSignal>();
  for (const [name, section] of Object.entries(sections)) {
    if (name === 'tcfeuv2') {
      const read = (list: unknown) => (n: number) => Array.isArray(list) && list[n - 1] === true;
      for (const s of tcfOracle(read(section.PurposeConsents), read(section.SpecialFeatureOptins))) signals.add(s);
    } else if (name.startsWith('us') && name !== 'uspv1') {
      if (section.Gpc === true) signals.add('gpc');
      if (['SaleOptOut', 'SharingOptOut', 'TargetedAdvertisingOptOut'].some((f) => section[f] === 1))
        signals.add('gpp-opt-out');
    }
  }
  return [...signals].sort();
}

const US_SECTIONS = ['usnat', 'usca', 'usva', 'usco', 'usut', 'usct', 'usia', 'usmd', 'usin', 'usky', 'usri', 'ustx'];
const twoBits = fc.integer({ min: 0, max: 2 });
const flags = (n: number) => fc.array(fc.boolean(), { minLength: n, maxLength: n });

const tcfFields = fc.record({ purposes: flags(24), features: flags(12), cmp: fc.integer({ min: 2, max: 4000 }) });
const usFields = fc.record({
  name: fc.constantFrom(...US_SECTIONS),
  sale: twoBits,
  sharing: twoBits,
  targeted: twoBits,
  gpc: fc.option(fc.boolean(), { nil: undefined }),
});

function setTcf(model: GppModel, fields: { purposes: boolean[]; features: boolean[]; cmp: number }) {
  model.setFieldValue('tcfeuv2', 'PurposeConsents', fields.purposes);
  model.setFieldValue('tcfeuv2', 'SpecialFeatureOptins', fields.features);
  model.setFieldValue('tcfeuv2', 'CmpId', fields.cmp);
  model.setFieldValue('tcfeuv2', 'VendorListVersion', 300);
  model.setFieldValue('tcfeuv2', 'PolicyVersion', 5);
}

function setUs(model: GppModel, us: { name: string; sale: number; sharing: number; targeted: number; gpc?: boolean }) {
  const has = (field: string) => model.hasField(us.name, field);
  model.setFieldValue(us.name, 'SaleOptOut', us.sale);
  if (has('SharingOptOut')) model.setFieldValue(us.name, 'SharingOptOut', us.sharing);
  if (has('TargetedAdvertisingOptOut')) model.setFieldValue(us.name, 'TargetedAdvertisingOptOut', us.targeted);
  if (us.gpc !== undefined && has('Gpc')) {
    model.setFieldValue(us.name, 'GpcSegmentIncluded', true);
    model.setFieldValue(us.name, 'Gpc', us.gpc);
  }
}

describe('TCF strings', () => {
  it('read the purposes and special features @iabtcf/core decodes', () => {
    fc.assert(
      fc.property(tcfFields, (fields) => {
        const model = new GppModel();
        setTcf(model, fields);
        const tc = model.encodeSection('tcfeuv2');
        const decoded = TCString.decode(tc);
        const expected = tcfOracle(
          (n) => decoded.purposeConsents.has(n),
          (n) => decoded.specialFeatureOptins.has(n),
        );
        expect(tcfStringSignals(tc).sort()).toEqual(expected.sort());
      }),
      { numRuns: 200 },
    );
  });

  it('make a string that does not decode unreadable', () => {
    for (const text of ['', 'zz', '!!!!', 'BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA'])
      expect(tcfStringSignals(text), text).toEqual(['unreadable']);
  });
});

describe('GPP strings', () => {
  it('read the TCF section, the US opt-outs and Gpc as @iabgpp/cmpapi decodes them', () => {
    fc.assert(
      fc.property(
        fc.option(tcfFields, { nil: undefined }),
        fc.uniqueArray(usFields, { selector: (us) => us.name, maxLength: 3 }),
        (tcf, us) => {
          fc.pre(tcf !== undefined || us.length > 0);
          const model = new GppModel();
          if (tcf) setTcf(model, tcf);
          for (const section of us) setUs(model, section);
          const text = model.encode();
          expect(gppStringSignals(text).sort(), text).toEqual(gppOracle(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('make what the library cannot decode unreadable', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        let decodes = true;
        try {
          gppOracle(text);
        } catch {
          decodes = false;
        }
        if (!decodes) expect(gppStringSignals(text)).toEqual(['unreadable']);
      }),
    );
    expect(gppStringSignals('DBABLA~garbage!')).toEqual(['unreadable']);
  });
});

describe('consentOf', () => {
  it('joins the plain signals and the strings', () => {
    const model = new GppModel();
    model.setFieldValue('usnat', 'SaleOptOut', 1);
    expect(consentOf({ gpp: model.encode(), tracking: false }, '1')).toEqual([
      'gpc',
      'app-tracking-off',
      'gpp-opt-out',
    ]);
    expect(consentOf(undefined)).toEqual([]);
    expect(plainSignals({ att: 'authorized', tracking: true, gpc: false }, '0')).toEqual([]);
    expect(plainSignals({ att: 'notDetermined' })).toEqual(['att-not-authorized']);
  });
});
