/**
 * The range's funnel as the dashboard shows it (docs/operators.md#the-console): the headline against
 * the previous period, the funnel per channel, the daily series, and the channels' and top inviters'
 * tables, each row opening its drill-down.
 */
import type { Drillable, Opener } from '../shared/drill-down.ts';
import { Legend } from '../shared/legend.tsx';
import { DailyChart } from './daily-chart.tsx';
import type { StatsRow } from './funnel-api.ts';
import { FunnelChart, STEPS, stepLabel } from './funnel-chart.tsx';
import { FunnelTable } from './funnel-table.tsx';
import type { FunnelTexts } from './funnel-texts.ts';
import { Headline } from './headline.tsx';

/** What the dashboard reads for its range: rows per channel, per day and per inviter. */
export interface Figures {
  channels: StatsRow[];
  days: StatsRow[];
  inviters: StatsRow[];
  /** The previous period's totals, for the headline's changes. */
  previous?: StatsRow;
}

export function FunnelFigures({
  figures,
  t,
  opener,
}: {
  figures: Figures;
  t: FunnelTexts;
  opener: (by: Drillable) => Opener;
}) {
  const { channels, days, previous } = figures;
  return (
    <div className="figures">
      <Headline rows={days} {...(previous ? { previous } : {})} t={t} />
      <section className="panel" aria-labelledby="funnel-heading">
        <h2 id="funnel-heading">{t.funnel}</h2>
        <Legend keys={STEPS.map((step) => [`bar-${step}`, stepLabel(step, t)] as const)} />
        {channels.length > 0 ? <FunnelChart rows={channels.slice(0, 8)} t={t} /> : <p>{t.noData}</p>}
      </section>
      <section className="panel" aria-labelledby="daily-heading">
        <h2 id="daily-heading">{t.daily}</h2>
        <Legend
          keys={[
            ['bar-views', t.views],
            ['line-taps', t.taps],
            ['line-installs', t.attributed],
            ['line-organic', t.organic],
          ]}
        />
        <DailyChart rows={days} t={t} />
      </section>
      <FigureTables figures={figures} t={t} opener={opener} />
    </div>
  );
}

/** The channels' table and the top inviters' (the first ten with a name). */
function FigureTables({ figures, t, opener }: { figures: Figures; t: FunnelTexts; opener: (by: Drillable) => Opener }) {
  const { channels, inviters } = figures;
  return (
    <>
      <section className="panel wide-panel" aria-labelledby="channels-heading">
        <h2 id="channels-heading">{t.channels}</h2>
        <FunnelTable
          className="channels-table"
          heading={t.channel}
          keyAttribute="data-channel-row"
          rows={channels}
          {...opener('channel')}
          t={t}
        />
      </section>
      <section className="panel wide-panel" aria-labelledby="inviters-heading">
        <h2 id="inviters-heading">{t.inviters}</h2>
        <FunnelTable
          className="inviters-table"
          heading={t.inviter}
          keyAttribute="data-inviter"
          {...opener('inviter')}
          rows={inviters.filter((row) => row.key !== '').slice(0, 10)}
          t={t}
        />
      </section>
    </>
  );
}
