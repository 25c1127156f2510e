/**
 * The Fraud panel (docs/fraud.md): per inviter and channel, installs and flagged installs by rule,
 * the anomalies, and a drill-down to one group's flagged installs with each flag's reason. Raw counts
 * stay beside the flags; the rules the configuration leaves out of the counted installs are named.
 */
import { useEffect, useState } from 'react';
import type { FraudGroup } from '../../../../shared/fraud-contract.ts';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { DataTable } from '../shared/data-table.tsx';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { sharedTexts } from '../shared/shared-texts.ts';
import type { FraudApi, FraudReport } from './fraud-api.ts';
import { type FraudTexts, fraudTexts } from './fraud-texts.ts';

type Group = Pick<FraudGroup, 'channel' | 'inviter'>;

const byRule = (counts: Record<string, number>, t: FraudTexts): string =>
  Object.entries(counts)
    .map(([rule, count]) => `${t.rules[rule] ?? rule} ${count}`)
    .join(', ');

export function FraudPanel({
  api,
  range,
  language,
}: {
  api: FraudApi;
  range: { from: string; to: string };
  language: Language;
}) {
  const t = fraudTexts(language);
  const [report, setReport] = useState<FraudReport | null>(null);
  const [chosen, setChosen] = useState<Group | null>(null);
  const [drill, setDrill] = useState<FraudReport | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let stale = false;
    api.report(range).then(
      (got) => {
        if (stale) return;
        setReport(got);
        setError('');
      },
      (failure: unknown) => !stale && setError(errorText(failure, sharedTexts(language))),
    );
    return () => {
      stale = true;
    };
  }, [api, range, language]);

  useEffect(() => {
    if (!chosen) return setDrill(null);
    let stale = false;
    api.report(range, chosen).then(
      (got) => !stale && setDrill(got),
      (failure: unknown) => !stale && setError(errorText(failure, sharedTexts(language))),
    );
    return () => {
      stale = true;
    };
  }, [api, range, chosen, language]);

  return <FraudView t={t} report={report} drill={drill} chosen={chosen} error={error} onChoose={setChosen} />;
}

/** The panel as shown: the groups, the anomalies, and the flagged installs (of the chosen group, if one is). */
export function FraudView({
  t,
  report,
  drill,
  chosen,
  error,
  onChoose,
}: {
  t: FraudTexts;
  report: FraudReport | null;
  drill: FraudReport | null;
  chosen: Group | null;
  error: string;
  onChoose: (group: Group | null) => void;
}) {
  const shown = drill ?? report;
  return (
    <section className="panel wide-panel fraud" aria-labelledby="fraud-heading">
      <h2 id="fraud-heading">{t.heading}</h2>
      <p className="hint">{t.hint}</p>
      {report && report.excluded.length > 0 ? (
        <p className="hint">
          {t.excluded} {report.excluded.map((rule) => t.rules[rule] ?? rule).join(', ')}
        </p>
      ) : null}
      <ErrorAlert message={error} />
      <FraudGroups t={t} groups={report?.groups ?? []} onChoose={onChoose} />
      <h3>{t.anomalies}</h3>
      <FraudAnomalies t={t} anomalies={shown?.anomalies ?? []} />
      <h3>
        {t.flaggedInstalls}
        {chosen ? ` · ${nameOf(chosen.inviter, t)} / ${nameOf(chosen.channel, t)} ` : ' '}
        {chosen ? (
          <button type="button" onClick={() => onChoose(null)}>
            {t.all}
          </button>
        ) : null}
      </h3>
      <FlaggedInstalls t={t} installs={shown?.installs ?? []} />
    </section>
  );
}

/** An inviter's or a channel's name, or "(none)". */
const nameOf = (text: string, t: FraudTexts): string => text || t.none;

/** Per inviter and channel: installs, flagged installs by rule, and "show why" where some are flagged. */
function FraudGroups({
  t,
  groups,
  onChoose,
}: {
  t: FraudTexts;
  groups: FraudReport['groups'];
  onChoose: (group: Group) => void;
}) {
  return (
    <DataTable
      className="fraud-groups"
      head={[t.inviter, t.channel, t.installs, t.flagged, t.rule, '']}
      empty={t.noGroups}
      rows={groups.map((group) => (
        <tr key={`${group.inviter}\n${group.channel}`} data-fraud-group={`${group.inviter}/${group.channel}`}>
          <td>{nameOf(group.inviter, t)}</td>
          <td>{nameOf(group.channel, t)}</td>
          <td>{group.installs}</td>
          <td>{group.flagged}</td>
          <td>{byRule(group.byRule, t)}</td>
          <td>
            {group.flagged > 0 ? (
              <button type="button" onClick={() => onChoose({ inviter: group.inviter, channel: group.channel })}>
                {t.show}
              </button>
            ) : null}
          </td>
        </tr>
      ))}
    />
  );
}

/** The anomalies: a day, an inviter and channel, the rule and why. */
function FraudAnomalies({ t, anomalies }: { t: FraudTexts; anomalies: FraudReport['anomalies'] }) {
  return (
    <DataTable
      className="fraud-anomalies"
      head={[t.day, t.inviter, t.channel, t.rule, t.reason]}
      empty={t.noAnomalies}
      rows={anomalies.map((anomaly) => (
        <tr key={`${anomaly.day}\n${anomaly.inviter}\n${anomaly.channel}\n${anomaly.rule}`}>
          <td>{anomaly.day}</td>
          <td>{nameOf(anomaly.inviter, t)}</td>
          <td>{nameOf(anomaly.channel, t)}</td>
          <td>{t.rules[anomaly.rule] ?? anomaly.rule}</td>
          <td>{anomaly.reason}</td>
        </tr>
      ))}
    />
  );
}

/** The flagged installs, each with its flags and their reasons. */
function FlaggedInstalls({ t, installs }: { t: FraudTexts; installs: FraudReport['installs'] }) {
  return (
    <DataTable
      className="fraud-installs"
      head={[t.at, t.install, t.inviter, t.channel, t.method, t.reason]}
      empty={t.noFlagged}
      rows={installs.map((install) => (
        <tr key={install.install} data-flagged-install={install.install}>
          <td>
            <time dateTime={install.at}>{install.at.slice(0, 19).replace('T', ' ')}</time>
          </td>
          <td>{install.install}</td>
          <td>{nameOf(install.inviter, t)}</td>
          <td>{nameOf(install.channel, t)}</td>
          <td>{install.method}</td>
          <td>
            <ul className="fraud-reasons">
              {install.flags.map((flag) => (
                <li key={flag.rule}>
                  <strong>{t.rules[flag.rule] ?? flag.rule}</strong>: {flag.reason}
                </li>
              ))}
            </ul>
          </td>
        </tr>
      ))}
    />
  );
}
