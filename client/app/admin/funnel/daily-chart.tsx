/**
 * The daily series (docs/operators.md): views as bars, taps, attributed and organic installs as lines, one column per day
 * of the range (quiet days included, as `by=day` gives them). Plain SVG.
 */
import type { StatsRow } from './funnel-api.ts';
import type { FunnelTexts } from './funnel-texts.ts';

const WIDTH = 480;
const HEIGHT = 200;
const LEFT = 40;
const BOTTOM = 24;
const TOP = 10;

export function DailyChart({ rows, t }: { rows: StatsRow[]; t: FunnelTexts }) {
  const max = Math.max(1, ...rows.map((row) => Math.max(row.views, row.taps, row.attributed, row.organic)));
  const step = (WIDTH - LEFT) / Math.max(1, rows.length);
  const y = (value: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / max);
  const x = (index: number) => LEFT + step * index + step / 2;
  const line = (pick: (row: StatsRow) => number) => rows.map((row, i) => `${x(i)},${y(pick(row))}`).join(' ');
  // A few day labels: the first, the last and some between, so they never overlap.
  const every = Math.max(1, Math.ceil(rows.length / 6));
  return (
    <svg className="chart daily-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t.daily}>
      <line className="axis" x1={LEFT} x2={WIDTH} y1={y(0)} y2={y(0)} />
      <text className="chart-value" x={LEFT - 6} y={y(max) + 4} textAnchor="end">
        {max}
      </text>
      <text className="chart-value" x={LEFT - 6} y={y(0) + 4} textAnchor="end">
        0
      </text>
      {rows.map((row, i) => (
        <rect
          key={row.key}
          className="bar bar-views"
          x={x(i) - step * 0.35}
          y={y(row.views)}
          width={step * 0.7}
          height={y(0) - y(row.views)}
          data-day={row.key}
        >
          <title>{`${row.key}: ${t.views} ${row.views}, ${t.taps} ${row.taps}, ${t.attributed} ${row.attributed}, ${t.organic} ${row.organic}`}</title>
        </rect>
      ))}
      <polyline className="line line-taps" points={line((row) => row.taps)} />
      <polyline className="line line-installs" points={line((row) => row.attributed)} />
      <polyline className="line line-organic" points={line((row) => row.organic)} />
      {rows.map((row, i) =>
        i % every === 0 || i === rows.length - 1 ? (
          <text key={row.key} className="chart-label" x={x(i)} y={HEIGHT - 6} textAnchor="middle">
            {row.key.slice(5)}
          </text>
        ) : null,
      )}
    </svg>
  );
}
