/**
 * Bots (docs/device.md): isbot, on the agent with the parts that name a person's device or app
 * masked first. isbot matches words, and some real phones and apps carry its words where no bot
 * would: Android model names (`Discovery`, `M bot 60`, `XBot_Senior`, `Newsday`), WeChat's
 * `Process/toolsmp`, Alipay's `AlipayDefined(…|…)`, the Sogou browser and app. A bot token anywhere
 * else (`(compatible; Googlebot/2.1; …)` after a phone agent) still makes the agent a bot.
 */
import { isbot } from 'isbot';

// The device model of an Android agent: `(Linux; [U; ]Android 10; [zh-cn; ]<model>[ Build/…])`.
// A model that holds `compatible`, a URL or an address is a crawler's text, not a model, and stays.
const ANDROID_MODEL = /^(mozilla\/5\.0 \(linux; (?:u; )?android [\d.]+; (?:[a-z]{2}[-_][a-z]{2,4}; )?)([^;)]+)/i;
const NOT_A_MODEL = /compatible|https?:|www\.|@/i;
// App fields isbot mistakes for bots; each is an app's own token, never a crawler's: the device
// fields Instagram, Threads and Facebook append (`Android (33/13; …; cloud; …)`, `(iPhone14,5; iOS 17_3; …)`),
// WeChat's process name, Alipay's network field and the Sogou browser's and app's names.
const APP_FIELDS =
  /\bAndroid \(\d+\/[^)]*\)|\(iP(?:hone|ad|od)\d+,\d+;[^)]*\)|\bProcess\/\w+|\bAlipayDefined\([^)]*\)|\bSogou(?=MSE|Mobile|Search|Explorer)/gi;

/** The agent with its device model and the app fields above replaced by neutral text. */
export function maskPersonTokens(userAgent: string): string {
  const model = ANDROID_MODEL.exec(userAgent);
  const masked =
    model?.[2] && !NOT_A_MODEL.test(model[2]) ? `${model[1]}K${userAgent.slice(model[0].length)}` : userAgent;
  return masked.replace(APP_FIELDS, 'App');
}

/** Whether the agent is a crawler, fetcher or tool rather than a person's browser. */
export function isBotAgent(userAgent: string): boolean {
  // Masking only matters for what isbot flags, so most agents are looked at once.
  return isbot(userAgent) && isbot(maskPersonTokens(userAgent));
}
