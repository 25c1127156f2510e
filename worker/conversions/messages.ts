/**
 * The conversion queue's messages (docs/conversions.md#delivery): an event as it happened, which the
 * consumer records and fans out to the app's destinations, and one delivery of it to one destination.
 * Both carry the event itself, so every retry builds the same request.
 */
import * as v from 'valibot';
import { AdClickSchema } from '../../shared/ad-click-schema.ts';
import { OS_FAMILIES } from '../facts.ts';

const Id = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/));

/** One of Lander's events as a destination is told of it: nothing personal, the install a keyed hash. */
export const ConversionEventSchema = v.object({
  /** Its id: an install's ledger key, an app event's keyed id; the same for every destination and attempt. */
  id: Id,
  kind: v.picklist(['install', 'open', 'event']),
  /** `install`, `open`, or the app event's name. */
  name: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_.-]{0,39}$/)),
  /** When it happened (ms). */
  at: v.number(),
  /** The app's package name or bundle id. */
  app: v.pipe(v.string(), v.maxLength(256)),
  platform: v.nullable(v.picklist(OS_FAMILIES)),
  /** The install's keyed hash (webhooks' `install`). */
  install: v.pipe(v.string(), v.maxLength(64)),
  /** The matched tap's ad click while the attribution window kept it. */
  ad: v.nullable(AdClickSchema),
  /** When the matched tap was (ms), or null. */
  clickedAt: v.nullable(v.number()),
  country: v.pipe(v.string(), v.maxLength(8)),
  /** An app event's value: its ISO 4217 code and whole minor units, negative for a refund (docs/operators.md#revenue). */
  currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))),
  amount: v.optional(v.pipe(v.number(), v.safeInteger())),
});
export type ConversionEvent = v.InferOutput<typeof ConversionEventSchema>;

/** The app it happened in (docs/routes.md#apps). */
const Tenant = v.pipe(v.string(), v.maxLength(64));

export const ConversionEventMessageSchema = v.object({
  k: v.literal('event'),
  tenant: Tenant,
  event: ConversionEventSchema,
});
export const ConversionDeliveryMessageSchema = v.object({
  k: v.literal('delivery'),
  tenant: Tenant,
  destination: Id,
  event: ConversionEventSchema,
});
export const ConversionMessageSchema = v.variant('k', [ConversionEventMessageSchema, ConversionDeliveryMessageSchema]);

export type ConversionEventMessage = v.InferOutput<typeof ConversionEventMessageSchema>;
export type ConversionDeliveryMessage = v.InferOutput<typeof ConversionDeliveryMessageSchema>;
