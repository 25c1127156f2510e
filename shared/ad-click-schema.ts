/**
 * An ad click's schema as the click API reads it (docs/conversions.md#ad-click-ids), apart from
 * ad-clicks.ts so the page's entry chunk, which reads the parameters, carries no validation library.
 */
import * as v from 'valibot';
import { AD_CLICK_PARAM_NAMES, AD_CLICK_VALUE, type AdClickParam, MAX_AD_CLICK_VALUE } from './ad-clicks.ts';

/** An ad click as the tap sends it: known names only, printable values (the click API's 400 names the field). */
export const AdClickSchema = v.strictObject(
  Object.fromEntries(
    AD_CLICK_PARAM_NAMES.map((name) => [
      name,
      v.optional(v.pipe(v.string(), v.regex(AD_CLICK_VALUE, `must be printable ASCII, 1–${MAX_AD_CLICK_VALUE}`))),
    ]),
  ) as Record<
    AdClickParam,
    v.OptionalSchema<v.SchemaWithPipe<readonly [v.StringSchema<undefined>, v.RegexAction<string, string>]>, undefined>
  >,
);
