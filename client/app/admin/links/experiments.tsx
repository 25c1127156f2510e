/**
 * Each link's experiment in the links room (docs/smart-links.md#variants-and-the-sequential-test):
 * the sequential test's verdict of every variant against the control, in a few words — "no winner
 * yet", or "b wins, +12 % [3 %, 21 %]": the winner, the lift in installs (or the chosen event) per
 * visitor, and its always-valid interval.
 */
import { useEffect, useState } from 'react';
import type { ExperimentView, Verdict } from '../../../../shared/variants.ts';
import { errorText } from '../shared/admin-client.ts';
import type { LinksApi } from './links-api.ts';
import type { LinksTexts } from './links-texts.ts';

/** A share as a whole percentage with its sign: `+12 %`, `−3 %`. */
export function signedPercent(share: number): string {
  const rounded = Math.round(share * 100);
  return `${rounded > 0 ? '+' : rounded < 0 ? '−' : ''}${Math.abs(rounded)} %`;
}

/** One comparison's words: the variant `name` against control `control`. */
export function verdictText(verdict: Verdict, name: string, control: string, t: LinksTexts): string {
  if (verdict.kind === 'no-winner-yet') return t.noWinnerYet;
  const [low, high] = verdict.interval.map(signedPercent);
  const figures = `${signedPercent(verdict.lift)} [${low}, ${high}]`;
  return verdict.winner === name ? t.wins(name, figures) : t.winsOver(control, name, figures);
}

/** The experiment's words: each named winner, else "no winner yet". */
export function experimentText(experiment: ExperimentView, t: LinksTexts): string {
  const control = experiment.arms[0]?.name ?? '';
  const winners = experiment.arms.flatMap(({ name, verdict }) =>
    verdict?.kind === 'winner' ? [verdictText(verdict, name, control, t)] : [],
  );
  return winners.length > 0 ? winners.join('; ') : t.noWinnerYet;
}

/** The experiments of the links that have variants (`GET /api/experiments`), by slug; read again when `version` changes. */
export function useExperiments(api: LinksApi, t: LinksTexts, onError: (text: string) => void, version = 0) {
  const [experiments, setExperiments] = useState<Map<string, ExperimentView>>(new Map());
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is a reload: a saved variants editor asks again
  useEffect(() => {
    let current = true;
    api.experiments().then(
      (list) => {
        if (current) setExperiments(new Map(list.map((experiment) => [experiment.slug, experiment])));
      },
      (failure: unknown) => {
        if (current) onError(errorText(failure, t));
      },
    );
    return () => {
      current = false;
    };
  }, [api, t, onError, version]);
  return experiments;
}

/** A link's experiment cell: its verdict in words, with each variant's visitors and outcomes on hover. */
export function ExperimentCell({ experiment, t }: { experiment: ExperimentView | undefined; t: LinksTexts }) {
  if (!experiment) return null;
  const counts = experiment.arms
    .map(({ name, visitors, installs, events }) => {
      const outcomes = experiment.outcome === 'installs' ? installs : events;
      return `${name}: ${outcomes} / ${visitors}`;
    })
    .join(', ');
  return (
    <span className="experiment" title={`${t.outcomeOf(experiment.outcome)} — ${counts}`}>
      {experimentText(experiment, t)}
    </span>
  );
}
