/**
 * A visit's campaign (docs/campaign-links.md), with what the operator signed and what anyone can type
 * kept apart: `signed` holds the fields of the `d` token, which only its signature vouches for;
 * `plain` holds the other query parameters. A plain parameter never overrides a signed field and is
 * never presented as one: it is shown only for a field the token does not name.
 */
export interface Campaign {
  /** The token's fields; empty without a valid token. */
  signed: Readonly<Record<string, string>>;
  /** Plain query parameters (bounded), `d` excluded. */
  plain: Readonly<Record<string, string>>;
  /** The `d` value itself, when it decrypted. */
  token?: string;
}

export const NO_CAMPAIGN: Campaign = Object.freeze({ signed: Object.freeze({}), plain: Object.freeze({}) });

/** A field as a page may show it: the token's when the token names it, else the plain parameter's. */
export function campaignField(campaign: Campaign, name: string): string | undefined {
  return Object.hasOwn(campaign.signed, name) ? campaign.signed[name] : campaign.plain[name];
}

/** The campaign as one record of the fields `campaignField` gives: the token's, then plain ones it does not name. */
export function campaignFields(campaign: Campaign): Record<string, string> {
  const fields = { ...campaign.signed };
  for (const [name, value] of Object.entries(campaign.plain)) if (!Object.hasOwn(fields, name)) fields[name] = value;
  return fields;
}

/** The token's fields a page shows (docs/campaign-links.md); the others are the operator's own names. */
export const SHOWN_FIELDS = ['title', 'inviter'] as const;

/**
 * The campaign as a page hands it to the browser: of the token's fields only those the page shows, so
 * a channel, a slug or an id never reaches the page's source; the token itself still travels (taps,
 * the clipboard) and only the worker reads it.
 */
export function pageCampaign(campaign: Campaign): Campaign {
  const signed: Record<string, string> = {};
  for (const name of SHOWN_FIELDS) {
    const value = campaign.signed[name];
    if (Object.hasOwn(campaign.signed, name) && value !== undefined) signed[name] = value;
  }
  return { ...campaign, signed };
}

/**
 * The campaign as query parameters to hand on (to the trace service, to the clipboard): the plain
 * ones and the token itself, never its decrypted fields, so the receiver can tell them apart again.
 */
export function campaignQuery(campaign: Campaign): Record<string, string> {
  return campaign.token ? { ...campaign.plain, d: campaign.token } : { ...campaign.plain };
}
