/**
 * The signed-in console (docs/operators.md): the range and the layout, with one sub-room per panel.
 * The header holds the range and the CSV export (dashboard-header.tsx); below it the funnel's figures
 * for the range (funnel/), a drill-down when the address names one, Apple's signed postbacks by day
 * (store-postbacks/), the fraud flags (fraud/), the test devices' installs (installs/, with the
 * test-devices/ form), the links (links/), the webhooks (webhooks/), the audit log (audit/), the
 * team's members and API keys (team/) and the privacy requests with their receipts (privacy/). Every funnel figure comes
 * from `/api/stats` for the range; a failed call shows the API's message in place. The links start
 * as the sign-in listed them and do not depend on the range: only Refresh lists them again. A room
 * never imports another: what one shows of another's is handed to it here. A panel the caller's
 * scopes cannot read (`/api/me`, docs/operators.md#who-is-calling) is left out; each room still shows
 * its own refusal when the scopes are unknown.
 */
import { useMemo } from 'react';
import type { Me } from '../../../shared/me.ts';
import type { Scope } from '../../../shared/roles.ts';
import type { Language } from '../../../shared/texts.ts';
import { setSearch, useSearch } from './address.ts';
import type { AdminApi } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import { AuditPanel } from './audit/audit-panel.tsx';
import { CohortsPanel } from './cohorts/cohorts-panel.tsx';
import { ConversionsPanel } from './conversions/conversions-panel.tsx';
import { DashboardHeader } from './dashboard-header.tsx';
import { FlagList } from './fraud/flag-list.tsx';
import { FraudPanel } from './fraud/fraud-panel.tsx';
import { DrillDownPanel } from './funnel/drill-down-panel.tsx';
import { FunnelFigures } from './funnel/funnel-figures.tsx';
import { TestInstallsPanel } from './installs/test-installs-panel.tsx';
import type { LinkView } from './links/links-api.ts';
import { LinksPanel } from './links/links-panel.tsx';
import { RuleSetsPanel } from './links/rule-sets-panel.tsx';
import { PrivacyPanel } from './privacy/privacy-panel.tsx';
import { useRange } from './range.ts';
import { useRangeFigures } from './range-figures.ts';
import { type Drill, type Drillable, drillOf, drillSearch } from './shared/drill-down.ts';
import { ErrorAlert } from './shared/error-alert.tsx';
import { StorePostbacksPanel } from './store-postbacks/store-postbacks-panel.tsx';
import { TeamPanel } from './team/team-panel.tsx';
import { TestDevices } from './test-devices/test-devices.tsx';
import { WebhooksPanel } from './webhooks/webhooks-panel.tsx';

interface DashboardProps {
  api: AdminApi;
  initialLinks: LinkView[];
  /** Who signed in; null when unknown, and every panel shows. */
  me?: Me | null;
  t: AdminTexts;
  language: Language;
  onSignOut?: (() => void) | undefined;
}

export function Dashboard({ api, initialLinks, me = null, t, language, onSignOut }: DashboardProps) {
  // The address holds the range and the drill-down, so a view can be shared (client/app/admin/shared/drill-down.ts).
  const address = useSearch();
  const search = useMemo(() => new URLSearchParams(address), [address]);
  const drill = useMemo(() => drillOf(search), [search]);
  const { range, setRange, shown, note, setDay } = useRange(search, drill, t);
  const { zone, figures, links, setLinks, error, setError, load } = useRangeFigures({
    api,
    range,
    setRange,
    initialLinks,
    t,
  });
  const can = (...scopes: Scope[]) => me === null || scopes.some((scope) => me.scopes.includes(scope));
  const open = (to: Drill | null) => setSearch(drillSearch(to, range));
  const opener = (by: Drillable) => ({
    hrefOf: (key: string) => drillSearch({ by, key }, range),
    onOpen: (key: string) => open({ by, key }),
  });
  return (
    <>
      <DashboardHeader
        {...{ api, t, range, shown, zone, setDay, onSignOut }}
        onRefresh={() => void load(true)}
        onError={setError}
      />
      {note ? (
        <p className="range-note" role="status">
          {note}
        </p>
      ) : null}
      <ErrorAlert message={error} />
      {drill ? <DrillDownPanel api={api} range={range} drill={drill} t={t} onClose={() => open(null)} /> : null}
      {figures ? <FunnelFigures figures={figures} t={t} opener={opener} /> : <p>{t.loading}</p>}
      {can('stats:read') ? <CohortsPanel api={api.cohorts} range={range} language={language} /> : null}
      {can('store-postbacks:read') ? <StorePostbacksPanel api={api} range={range} t={t} /> : null}
      {can('fraud:read') ? <FraudPanel api={api.fraud} range={range} language={language} /> : null}
      {can('installs:read') ? (
        <TestInstallsPanel
          api={api}
          t={t}
          language={language}
          devices={can('test-devices:read') ? <TestDevices api={api.testDevices} t={t} language={language} /> : null}
          flags={(flags) => <FlagList flags={flags} language={language} />}
        />
      ) : null}
      {can('links:read') ? (
        <LinksPanel
          api={api}
          links={links}
          editable={can('links:write')}
          onCreated={(link) => setLinks([link, ...links])}
          onChanged={(changed) => setLinks(links.map((link) => (link.slug === changed.slug ? changed : link)))}
          t={t}
          opener={opener('link')}
          range={range}
          zone={zone}
        />
      ) : null}
      {can('links:read') ? <RuleSetsPanel api={api} editable={can('links:write')} zone={zone} t={t} /> : null}
      {can('webhooks:read') ? <WebhooksPanel api={api.webhooks} t={t} zone={zone} /> : null}
      {can('conversions:read') ? (
        <ConversionsPanel api={api.conversions} zone={zone} language={language} editable={can('conversions:write')} />
      ) : null}
      {can('audit:read') ? <AuditPanel api={api.audit} zone={zone} language={language} /> : null}
      {can('members:read', 'keys:read') ? <TeamPanel api={api.team} t={t} language={language} /> : null}
      {can('privacy:read') ? (
        <PrivacyPanel api={api.privacy} zone={zone} language={language} editable={can('privacy:write')} />
      ) : null}
    </>
  );
}
