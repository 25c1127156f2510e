/**
 * The links room's calls to `/api/links` (docs/operators.md): the links, a new one, a link's expiry
 * moved, its password set or removed, its rules or preview replaced, its variants read, replaced or
 * removed; the app's rule sets for campaign tokens listed, written and deleted. A link's figures are the funnel's (`/api/stats?by=link`), read through the console's API.
 */
import type { LinkView, StatsRow } from '../../../../shared/admin-contract.ts';
import type { LinkPreview } from '../../../../shared/link-preview.ts';
import type { LinkRule } from '../../../../shared/link-rules.ts';
import type { Experiment, ExperimentView } from '../../../../shared/variants.ts';
import type { HttpClient } from '../../http-client.ts';
import type { Range } from '../shared/admin-client.ts';

export type { LinkView };

/** A rule set as `/api/rule-sets` answers it (worker/rules/rule-sets.ts). */
export interface RuleSetView {
  id: string;
  rules: LinkRule[];
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** What a new link asks for. */
export interface LinkRequest {
  channel?: string;
  inviter?: string;
  slug?: string;
  /** Fields signed into the link's token; `title` is the display text visitors see (docs/campaign-links.md). */
  data?: { title?: string };
  /** The password `/s/<slug>` asks for first (8 to 128 characters); none when left out. */
  password?: string;
}

/** The link calls, through `client` with `headers`. */
export function linksApi(client: HttpClient, headers: Record<string, string>) {
  return {
    async links(): Promise<LinkView[]> {
      return (await client<{ links: LinkView[] }>('/api/links', { headers })).links;
    },
    createLink(body: LinkRequest): Promise<LinkView> {
      return client<LinkView>('/api/links', { method: 'POST', body, headers });
    },
    /** The experiments of the links with variants (docs/smart-links.md#variants-and-the-sequential-test). */
    async experiments(): Promise<ExperimentView[]> {
      return (await client<{ experiments: ExperimentView[] }>('/api/experiments', { headers })).experiments;
    },
    /** Moves a link's expiry (`null`: it never expires), answering the link as it now is. */
    setLinkExpiry(slug: string, expiresAt: string | null): Promise<LinkView> {
      return client<LinkView>(`/api/links/${encodeURIComponent(slug)}`, {
        method: 'PATCH',
        body: { expiresAt },
        headers,
      });
    },
    /** Sets a link's password (`null`: removes it), answering the link as it now is. */
    setLinkPassword(slug: string, password: string | null): Promise<LinkView> {
      return client<LinkView>(`/api/links/${encodeURIComponent(slug)}`, {
        method: 'PATCH',
        body: { password },
        headers,
      });
    },
    /** A link's variants as kept (docs/smart-links.md#variants-and-the-sequential-test); refused with 404 when it has none. */
    variants(slug: string): Promise<Experiment> {
      return client<Experiment>(`/api/links/${encodeURIComponent(slug)}/variants`, { headers });
    },
    /** Gives a link its variants, answering them as kept. */
    setVariants(slug: string, experiment: Experiment): Promise<Experiment> {
      return client<Experiment>(`/api/links/${encodeURIComponent(slug)}/variants`, {
        method: 'PUT',
        body: experiment,
        headers,
      });
    },
    /** Removes a link's variants. */
    async removeVariants(slug: string): Promise<void> {
      await client(`/api/links/${encodeURIComponent(slug)}/variants`, { method: 'DELETE', headers });
    },
    /** Replaces a link's preview (`null`: none), answering the link as it now is. */
    setLinkPreview(slug: string, preview: LinkPreview | null): Promise<LinkView> {
      return client<LinkView>(`/api/links/${encodeURIComponent(slug)}`, {
        method: 'PATCH',
        body: { preview },
        headers,
      });
    },
    /** The app's rule sets (docs/smart-links.md#rule-sets), by id. */
    async ruleSets(): Promise<RuleSetView[]> {
      return (await client<{ ruleSets: RuleSetView[] }>('/api/rule-sets', { headers })).ruleSets;
    },
    /** Creates or replaces the rule set `id`, answering it as kept. */
    putRuleSet(id: string, rules: LinkRule[]): Promise<RuleSetView> {
      return client<RuleSetView>(`/api/rule-sets/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { rules },
        headers,
      });
    },
    /** Deletes the rule set `id`. */
    async deleteRuleSet(id: string): Promise<void> {
      await client(`/api/rule-sets/${encodeURIComponent(id)}`, { method: 'DELETE', headers });
    },
    /** Replaces a link's rules (`[]`: none), answering the link as it now is. */
    setLinkRules(slug: string, rules: LinkRule[]): Promise<LinkView> {
      return client<LinkView>(`/api/links/${encodeURIComponent(slug)}`, { method: 'PATCH', body: { rules }, headers });
    },
  };
}

/** What the links panel calls: the link calls, and the funnel's figures per link over a range. */
export type LinksApi = ReturnType<typeof linksApi> & {
  stats(by: 'link', range: Range): Promise<StatsRow[]>;
};
