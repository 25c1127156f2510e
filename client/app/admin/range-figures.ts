/**
 * What the dashboard reads for its range (docs/operators.md): the funnel's figures per channel, per
 * day (with the previous period and the operator's zone) and per inviter, and on Refresh the links
 * too, as one call whose answer only lands while its range is still the one shown.
 */
import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../../../shared/time-zone.ts';
import type { AdminApi } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import type { Figures } from './funnel/funnel-figures.tsx';
import type { LinkView } from './links/links-api.ts';
import { zonedRange } from './range.ts';
import { errorText, type Range } from './shared/admin-client.ts';
import { latestOnly, STALE } from './shared/latest-only.ts';

export function useRangeFigures({
  api,
  range,
  setRange,
  initialLinks,
  t,
}: {
  api: AdminApi;
  range: Range;
  /** Moves the range once the answer names the operator's zone (`zonedRange`). */
  setRange: (change: (shown: Range) => Range) => void;
  initialLinks: LinkView[];
  t: AdminTexts;
}) {
  const [zone, setZone] = useState(DEFAULT_TIME_ZONE);
  const [figures, setFigures] = useState<Figures | null>(null);
  const [links, setLinks] = useState<LinkView[]>(initialLinks);
  const [error, setError] = useState('');
  const [newest] = useState(latestOnly);

  const load = useCallback(
    async (withLinks: boolean) => {
      setError('');
      try {
        const answer = await newest(
          Promise.all([
            api.stats('channel', range),
            api.compared('day', range),
            api.stats('inviter', range),
            withLinks ? api.links() : undefined,
          ]),
        );
        if (answer === STALE) return;
        const [channels, days, inviters, list] = answer;
        setFigures({
          channels,
          days: days.rows,
          inviters,
          ...(days.previous ? { previous: days.previous.totals } : {}),
        });
        if (list) setLinks(list);
        // The answer names the operator's zone: the default range becomes that zone's last 7 days.
        const named = days.timeZone;
        // A zone this browser does not know is shown but leaves the range as it is.
        if (named) setZone(named);
        if (named && isTimeZone(named)) {
          setRange((shown) => zonedRange(shown, named));
        }
      } catch (failure) {
        setError(errorText(failure, t));
      }
    },
    [api, range, newest, t, setRange],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  return { zone, figures, links, setLinks, error, setError, load };
}
