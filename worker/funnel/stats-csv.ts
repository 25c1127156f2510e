/**
 * The stats rows as CSV (docs/operators.md), for a spreadsheet: RFC 4180 quoting, and a cell that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) is prefixed
 * with `'`, since keys are whatever a campaign link carried.
 */
import { FRAUD_RULES } from '../../shared/config/schema.ts';
import { MATCH_METHODS, TAP_ACTIONS, UNMATCHED_REASONS } from '../facts.ts';
import type { StatsRow } from './stats-query.ts';

const FORMULA = /^[=+\-@\t\r]/;

/** One CSV cell: formula-guarded, quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A rate as a share (0–1, docs/operators.md#rates); empty for a share of nothing. */
const rateCell = (value: number | null): string | number => value ?? '';

const METHODS = [...MATCH_METHODS, ...UNMATCHED_REASONS.map((reason) => `unmatched:${reason}`)];

/**
 * `rows` as a CSV document: fixed columns (the installs attributed and organic, the rates beside
 * their counts, the fraud rules' flagged installs and the counted ones after the installs,
 * docs/fraud.md), then one per app event name found and its rate over installs, with a header line.
 */
export function statsCsv(rows: readonly StatsRow[]): string {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row.events)))].sort();
  const header = [
    'key',
    'views',
    'visitors',
    'taps',
    ...TAP_ACTIONS.map((action) => `tap:${action}`),
    'rate:tap',
    'installs',
    'installs:attributed',
    'installs:organic',
    'rate:install',
    ...METHODS.map((method) => `install:${method}`),
    'installs:flagged',
    ...FRAUD_RULES.map((rule) => `flagged:${rule}`),
    'installs:counted',
    'opens',
    ...names.map((name) => `event:${name}`),
    ...names.map((name) => `rate:event:${name}`),
  ];
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) {
    const cells: (string | number)[] = [
      row.key,
      row.views,
      row.visitors,
      row.taps,
      ...TAP_ACTIONS.map((action) => row.byAction[action] ?? 0),
      rateCell(row.rates.tap),
      row.installs,
      row.attributed,
      row.organic,
      rateCell(row.rates.install),
      ...METHODS.map((method) => row.byMethod[method] ?? 0),
      row.flagged.installs,
      ...FRAUD_RULES.map((rule) => row.flagged.byRule[rule] ?? 0),
      row.countedInstalls,
      row.opens,
      ...names.map((name) => row.events[name] ?? 0),
      ...names.map((name) => rateCell(row.rates.events[name] ?? null)),
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
