/**
 * A link's rule as written (docs/smart-links.md#actions): a CEL condition and what to do when it
 * holds. This is the schema the links API checks a body against and the OpenAPI document shows; the
 * condition itself is compiled by the worker (worker/rules/compile.ts).
 */
import * as v from 'valibot';

/** The most rules a link carries. */
export const MAX_RULES = 100;
/** The longest condition, in characters. */
export const MAX_WHEN = 1_000;
/** The longest URL a rule may send to. */
export const MAX_URL = 2_048;
/** The longest deep link path. */
export const MAX_PATH = 512;

const When = v.pipe(
  v.string(),
  v.minLength(1, 'when is a CEL condition, e.g. os == "iOS"'),
  v.maxLength(MAX_WHEN, `when is at most ${MAX_WHEN} characters`),
);

/** A variant's name, as the page's variants are named. */
export const VARIANT_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** A path in the app: `/` then no whitespace or backslash; never `//` (another host). */
const DEEP_LINK_PATH = /^\/(?!\/)[^\s\\]*$/;
/** No control character (C0 or DEL): checked beside the pattern, which the OpenAPI document shows as it is. */
const printable = (text: string): boolean =>
  [...text].every((char) => (char.codePointAt(0) ?? 0) >= 0x20 && char !== '\u007f');

export const RuleSchema = v.variant(
  'action',
  [
    v.strictObject({
      when: When,
      action: v.literal('page'),
      variant: v.optional(v.pipe(v.string(), v.regex(VARIANT_NAME, 'variant is 1 to 32 of A-Z, a-z, 0-9, _ and -'))),
    }),
    v.strictObject({ when: When, action: v.literal('store') }),
    v.strictObject({
      when: When,
      action: v.literal('url'),
      url: v.pipe(v.string(), v.maxLength(MAX_URL, `url is at most ${MAX_URL} characters`)),
    }),
    v.strictObject({
      when: When,
      action: v.literal('deep-link'),
      path: v.pipe(
        v.string(),
        v.maxLength(MAX_PATH, `path is at most ${MAX_PATH} characters`),
        v.regex(DEEP_LINK_PATH, 'path is a path in the app: / then no spaces, e.g. /product/42'),
        v.check(printable, 'path is a path in the app: no control characters'),
      ),
    }),
  ],
  'action is one of page, store, url, deep-link',
);

/** A rule set's id (docs/smart-links.md#rule-sets): 1 to 32 of a–z, 0–9, `_` and `-`, short enough to sign into every token. */
export const RULE_SET_ID_PATTERN = '[a-z0-9_-]{1,32}';
export const RULE_SET_ID = new RegExp(`^${RULE_SET_ID_PATTERN}$`);

/** The signed field of a campaign token that names its rule set. */
export const RULES_FIELD = 'rules';

/** A link's rules, in order: the first whose condition holds decides. */
export const RulesSchema = v.pipe(v.array(RuleSchema), v.maxLength(MAX_RULES, `at most ${MAX_RULES} rules`));

export type LinkRule = v.InferOutput<typeof RuleSchema>;

/** What a rule does: the rule without its condition. No rule holding is `{ action: 'page' }`. */
export type Action =
  | { action: 'page'; variant?: string }
  | { action: 'store' }
  | { action: 'url'; url: string }
  | { action: 'deep-link'; path: string };

/** What happens when no rule holds: the page itself. */
export const THE_PAGE: Action = Object.freeze({ action: 'page' });

/** The action of `rule`: the rule without its condition. */
export function actionOf(rule: LinkRule): Action {
  const { when: _when, ...action } = rule;
  return action;
}
