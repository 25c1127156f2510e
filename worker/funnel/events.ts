/**
 * The funnel's event contract (docs/operators.md): what the page, attribution and app events send,
 * the dimensions every event is counted under, and the queue message that carries both. Producers
 * build an `EventInput` and hand it to `recordEvent`; only the consumer reads `FunnelMessage`.
 */
import * as v from 'valibot';
import { DEFAULT_APP } from '../../shared/apps.ts';
import {
  type Dimensions,
  EVENT_NAME,
  EVENT_NAME_RULE,
  MATCH_METHODS,
  MAX_DIMENSION,
  PAGE_KINDS,
  TAP_ACTIONS,
  UNMATCHED_REASONS,
  type VisitorSource,
} from '../facts.ts';

/** An app event's name (facts.ts `EVENT_NAME`). */
const EventNameSchema = v.pipe(v.string(), v.regex(EVENT_NAME, EVENT_NAME_RULE));

/** One thing that happened: a page view, a tap, an install, an app opened by a link, an app event. */
export const FunnelEventSchema = v.union([
  v.strictObject({ type: v.literal('view'), page: v.picklist(PAGE_KINDS) }),
  v.strictObject({ type: v.literal('tap'), action: v.picklist(TAP_ACTIONS) }),
  v.strictObject({ type: v.picklist(['install', 'open']), method: v.picklist(MATCH_METHODS) }),
  v.strictObject({ type: v.picklist(['install', 'open']), unmatched: v.picklist(UNMATCHED_REASONS) }),
  // Any number, or null (what JSON makes of a non-finite one): the API bounds a value
  // (attribution/contract.ts), and the consumer counts whatever value a message carries within that
  // bound (bounds.ts, `heldValue`), so a message queued before the bound still counts.
  v.strictObject({
    type: v.literal('event'),
    name: EventNameSchema,
    value: v.optional(v.nullable(v.union([v.number(), v.nan()]))),
    // Revenue (docs/operators.md#revenue): the value's currency and its amount in minor units,
    // counted apart from `value` per currency; the API decided both (attribution/contract.ts).
    currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))),
    amount: v.optional(v.pipe(v.number(), v.safeInteger())),
  }),
]);
export type FunnelEvent = v.InferOutput<typeof FunnelEventSchema>;

const Dimension = v.pipe(v.string(), v.maxLength(MAX_DIMENSION));

/**
 * What an event is counted under, `''` for "none". `channel`, `inviter` come only from the signed
 * campaign token; the plain query parameters of the same names are `plainChannel`, `plainInviter`,
 * so a typed-in `?channel=` never counts as the operator's channel. `link` is a short link's slug,
 * `variant` its variant's name.
 */
export const DimensionsSchema = v.object({
  channel: Dimension,
  inviter: Dimension,
  link: Dimension,
  // Messages queued before variants carry none: theirs is ''.
  variant: v.optional(Dimension, ''),
  os: Dimension,
  inapp: Dimension,
  country: Dimension,
  lang: Dimension,
  plainChannel: Dimension,
  plainInviter: Dimension,
}) satisfies v.GenericSchema<Omit<Dimensions, 'variant'> & { variant?: string }, Dimensions>;

export const NO_DIMENSIONS: Dimensions = Object.freeze({
  channel: '',
  inviter: '',
  link: '',
  variant: '',
  os: '',
  inapp: '',
  country: '',
  lang: '',
  plainChannel: '',
  plainInviter: '',
});

/** What a producer hands to `recordEvent`. */
export interface EventInput {
  event: FunnelEvent;
  dims: Dimensions;
  /** A page view's visitor; only views make visitors (docs/operators.md#visitors), so other events carry none. */
  visitor?: VisitorSource;
  /** The message id when the event names itself (an app event's id): counted once however often sent. */
  id?: string;
  /** The operator's time zone (docs/operators.md#days-and-time-zones) whose day the event is counted in; UTC without one. */
  zone?: string;
  /** The app an app event is of: its names are bounded per app (docs/operators.md#bounds). */
  app?: string;
  /** The app (docs/routes.md#apps) whose funnel counts the event; `default` without one. */
  tenant?: string;
  /** The install's ledger key, for an open or an app event: its day's count is bounded. */
  install?: string;
  /** When it happened (ms since the epoch), when that was before it is recorded: its day is that moment's. */
  at?: number;
  /**
   * When an app event happened on the device, as the app said, when before `at`: its cohort day is
   * that moment's (docs/operators.md#cohorts); the funnel's own figures keep `at`'s day.
   */
  happened?: number;
}

/** The queue message: the event, its dimensions, an id for idempotent counting, and the hashed visitor. */
export const FunnelMessageSchema = v.object({
  v: v.literal(1),
  /** Unique per event: a redelivered message counts once. */
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  /** UTC day the event happened, `YYYY-MM-DD`. */
  day: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
  /**
   * The operator's day an app event happened on the device, when the app said and it is before `day`:
   * the day cohorts count it on (docs/operators.md#cohorts). Absent: `day`.
   */
  on: v.optional(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/))),
  event: FunnelEventSchema,
  dims: DimensionsSchema,
  /** The day's visitor hash (visitor-key.ts); absent when the event has no visitor or no key. */
  visitor: v.optional(v.pipe(v.string(), v.maxLength(64))),
  /** The app of an app event (`EventInput.app`); absent in messages queued before the bounds. */
  app: v.optional(v.pipe(v.string(), v.maxLength(128))),
  /** The install of an open or an app event (`EventInput.install`). */
  install: v.optional(v.pipe(v.string(), v.maxLength(64))),
  /**
   * The app (docs/routes.md#apps) whose funnel counts it; absent in messages queued before apps, which
   * are `default`'s. Not `app`, which already names an app event's package or bundle id.
   */
  tenant: v.optional(v.pipe(v.string(), v.maxLength(64))),
});
export type FunnelMessage = v.InferOutput<typeof FunnelMessageSchema>;

/** The app a funnel message is counted in. */
export const appOfMessage = (message: FunnelMessage): string => message.tenant ?? DEFAULT_APP;

/** The rollup metric an event counts under: `view:<page>`, `tap:<action>`, `install:<method>`, … */
export function metricOf(event: FunnelEvent): string {
  switch (event.type) {
    case 'view':
      return `view:${event.page}`;
    case 'tap':
      return `tap:${event.action}`;
    case 'install':
    case 'open':
      return 'method' in event ? `${event.type}:${event.method}` : `${event.type}:unmatched:${event.unmatched}`;
    case 'event':
      return `event:${event.name}`;
  }
}
