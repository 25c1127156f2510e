/**
 * The funnel per channel (docs/operators.md): for each channel, its views, taps, installs and app
 * events as bars on one scale, so the drop from step to step reads at a glance. Plain SVG: no chart
 * library in the console's chunk.
 */
import type { StatsRow } from './funnel-api.ts';
import type { FunnelTexts } from './funnel-texts.ts';

export const STEPS = ['views', 'taps', 'installs', 'events'] as const;
export type Step = (typeof STEPS)[number];

/**
 * The count of `step` in `row`; installs are the attributed ones (organic installs never tapped a
 * channel's link: docs/operators.md#attributed-and-organic); app events are all names together.
 */
export function stepOf(row: StatsRow, step: Step): number {
  if (step === 'installs') return row.attributed;
  if (step !== 'events') return row[step];
  return Object.values(row.events).reduce((sum, count) => sum + count, 0);
}

/** A step's name: the installs step counts the attributed ones. */
export const stepLabel = (step: Step, t: FunnelTexts): string => (step === 'installs' ? t.attributed : t[step]);

const WIDTH = 480;
const LABEL = 110;
const BAR = 14;
const GAP = 3;
const GROUP = STEPS.length * (BAR + GAP) + 18;

export function FunnelChart({ rows, t }: { rows: StatsRow[]; t: FunnelTexts }) {
  const max = Math.max(1, ...rows.flatMap((row) => STEPS.map((step) => stepOf(row, step))));
  const scale = (WIDTH - LABEL - 60) / max;
  return (
    <svg
      className="chart funnel-chart"
      viewBox={`0 0 ${WIDTH} ${rows.length * GROUP}`}
      role="img"
      aria-label={t.funnel}
    >
      {rows.map((row, index) => (
        <g key={row.key} transform={`translate(0 ${index * GROUP})`} data-channel={row.key}>
          <text className="chart-label" x={0} y={BAR + 2}>
            {(row.key || t.none).slice(0, 16)}
          </text>
          {STEPS.map((step, at) => {
            const value = stepOf(row, step);
            const y = at * (BAR + GAP);
            const width = Math.max(value > 0 ? 2 : 0, value * scale);
            return (
              <g key={step} data-step={step}>
                <rect className={`bar bar-${step}`} x={LABEL} y={y} width={width} height={BAR} rx={3}>
                  <title>{`${stepLabel(step, t)}: ${value}`}</title>
                </rect>
                <text className="chart-value" x={LABEL + width + 6} y={y + BAR - 3}>
                  {value}
                </text>
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
}
