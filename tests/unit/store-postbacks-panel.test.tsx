/** The console's Store postbacks tables (docs/store-postbacks.md): day totals, Apple's aggregates, the range's end. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { adminTexts } from '../../client/app/admin/admin-texts.ts';
import { StorePostbackTables } from '../../client/app/admin/store-postbacks/store-postbacks-panel.tsx';
import type { StorePostbackGroup, StorePostbacksView } from '../../shared/store-postbacks.ts';

const group = (day: string, extra: Partial<StorePostbackGroup>): StorePostbackGroup => ({
  day,
  kind: 'skadnetwork',
  version: '4.0',
  source: '5239',
  publisher: 'example.com',
  conversionValue: null,
  coarseValue: null,
  sequenceIndex: 0,
  countryCode: null,
  reengagement: false,
  won: true,
  postbacks: 1,
  ...extra,
});

const view: StorePostbacksView = {
  since: '2026-11-20',
  days: [
    { day: '2026-11-26', skadnetwork: 0, adattributionkit: 3 },
    { day: '2026-11-25', skadnetwork: 2, adattributionkit: 0 },
  ],
  groups: [
    group('2026-11-26', {
      kind: 'adattributionkit',
      version: '',
      source: '1234',
      coarseValue: 'medium',
      countryCode: 'US',
      reengagement: true,
      sequenceIndex: 1,
      postbacks: 3,
    }),
    group('2026-11-25', { conversionValue: 63, postbacks: 2 }),
  ],
};

describe('the Store postbacks tables', () => {
  it("show each day's totals and the aggregates Apple gave", () => {
    const html = renderToStaticMarkup(<StorePostbackTables view={view} to="2026-11-26" t={adminTexts('en')} />);
    expect(html).toContain(
      '<tr data-store-day="2026-11-26"><th scope="row" data-label="Day">2026-11-26</th><td data-label="SKAdNetwork">0</td><td data-label="AdAttributionKit">3</td></tr>',
    );
    expect(html).toContain(
      '<tr data-store-source="1234"><th scope="row" data-label="Day">2026-11-26</th><td data-label="Framework">AdAttributionKit</td><td data-label="Source">1234</td><td data-label="Publisher">example.com</td><td data-label="Conversion value">medium</td><td data-label="Window">2</td><td data-label="Country">US</td><td data-label="Re-engagement">yes</td><td data-label="Postbacks">3</td></tr>',
    );
    expect(html).toContain(
      '<td data-label="Framework">SKAdNetwork 4.0</td><td data-label="Source">5239</td><td data-label="Publisher">example.com</td><td data-label="Conversion value">63</td><td data-label="Window">1</td>',
    );
  });

  it("leave out days after the range's end, and say so when nothing is left", () => {
    const html = renderToStaticMarkup(<StorePostbackTables view={view} to="2026-11-24" t={adminTexts('zh-CN')} />);
    expect(html).toContain('此时间范围内没有 Apple 签名的回传。');
    expect(html).not.toContain('2026-11-25');
  });
});
