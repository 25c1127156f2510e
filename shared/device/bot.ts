/**
 * Bots (docs/device.md): isbot, on the agent with the parts that name a person's device or app
 * masked first. isbot matches words, and some real phones and apps carry its words where no bot
 * would: Android model names (`Discovery`, `M bot 60`, `XBot_Senior`, `Newsday`), WeChat's
 * `Process/toolsmp`, Alipay's `AlipayDefined(…|…)`, the Sogou browser and app. A bot token anywhere
 * else (`(compatible; Googlebot/2.1; …)` after a phone agent) still makes the agent a bot.
 * isbot also judges an agent by its shape (a bare `product/version`, no space in 50 characters, a
 * cut-off `…; X11;`), which catches tools but also handsets and small browsers that send such agents;
 * for an agent led by a browser's or handset's own product, only isbot's words count. That holds for
 * the browsers isbot lists by name (NetSurf, Amaya) and for a browser whose only comment is its own
 * homepage (Avant Browser), whose address would otherwise read as a crawler's contact.
 */
import { isbot } from 'isbot';

// The device model of an Android agent: `(Linux; [U; ]Android 10; [zh-cn; ]<model>[ Build/…])`.
// A model that holds `compatible`, a URL or an address is a crawler's text, not a model, and stays.
const ANDROID_MODEL = /^(mozilla\/5\.0 \(linux; (?:u; )?android [\d.]+; (?:[a-z]{2}[-_][a-z]{2,4}; )?)([^;)]+)/i;
const NOT_A_MODEL = /compatible|https?:|www\.|@/i;
// App fields isbot mistakes for bots; each is an app's own token, never a crawler's: the device
// fields Instagram, Threads and Facebook append (`Android (33/13; …; cloud; …)`, `(iPhone14,5; iOS 17_3; …)`),
// WeChat's process name, Alipay's network field and the Sogou browser's and app's names.
// Also the tokens browser add-ons put in every agent of their users (Google Toolbar's `GoogleT5`,
// `FirePHP/`), a J2ME phone's `Java/…` VM beside its `Profile/MIDP-…`, LG feature phones'
// `Browser/Phantom/`, and the carrier field of Japanese PHS phones
// (`Mozilla/3.0(DDIPOCKET;…)`, WILLCOM), whose agents have no space isbot would otherwise miss.
const APP_FIELDS =
  /\bAndroid \(\d+\/[^)]*\)|\(iP(?:hone|ad|od)\d+,\d+;[^)]*\)|\bProcess\/\w+|\bAlipayDefined\([^)]*\)|\bSogou(?=MSE|Mobile|Search|Explorer)|\bGoogleT\d+\b|\bFirePHP\/|\bBrowser\/Phantom\/|\bJava\/(?=.*\bProfile\/MIDP-)|\((?:DDIPOCKET|WILLCOM);/gi;

/** The agent with its device model and the app fields above replaced by neutral text. */
export function maskPersonTokens(userAgent: string): string {
  const model = ANDROID_MODEL.exec(userAgent);
  const masked =
    model?.[2] && !NOT_A_MODEL.test(model[2]) ? `${model[1]}K${userAgent.slice(model[0].length)}` : userAgent;
  return masked.replace(APP_FIELDS, 'App ');
}

// Browsers and handsets whose own agents have a tool's shape: text-mode and small desktop browsers
// (`w3m/0.5.1`, `Mozilla/4.0 (compatible; Dillo 3.0)`, `Sleipnir/2.9.9`), the nook e-reader, and
// feature phones' bare product tokens (`SonyEricssonT68/R201A`, `Nokia6100/1.0 (04.01) …`).
// Also the browsers isbot lists by name though ua-parser-js names them as browsers: `^netsurf`
// (NetSurf, still shipped for RISC OS, Haiku and Linux) and `^amaya` (W3C's browser); led by their
// own product, they are people (docs/device.md, "Measured accuracy").
const PERSON_PRODUCT =
  /^(?:Mozilla\/[\d.]+ \(compatible; )?(?:(?:w3m|Lynx|Links|ELinks|Dillo|Konqueror|Sleipnir|nook browser|NetSurf|Amaya)[/ ]|SonyEricsson|Nokia|BlackBerry|SAMSUNG-|MOT-|LG-)/i;
// A browser product whose only comment is its own homepage (`Avant Browser/1.2 (http://www.avantbrowser.com)`):
// a crawler's address names its bot page or carries `+`; this one is the host named after the
// browser itself, so the address is masked and the browser is a person product like those above.
const HOMEPAGE_ONLY = /^([a-z][a-z ]*browser)\/[\w.]+ \(https?:\/\/(?:www\.)?([a-z-]+)\.[a-z.]+\/?\)$/i;
const withoutHomepage = (userAgent: string): string | undefined => {
  const [, product = '', host = ''] = HOMEPAGE_ONLY.exec(userAgent) ?? [];
  const named = product !== '' && product.replace(/ /g, '').toLowerCase() === host.toLowerCase();
  return named ? userAgent.slice(0, userAgent.indexOf(' (')) : undefined;
};
// isbot's shape patterns are anchored at the agent's start or end, where such an agent has its own
// product: framed as one product of a browser agent, only isbot's words can still match it (its
// list is not imported a second time, which would double the patterns in the browser's chunk).
const hasBotWord = (userAgent: string): boolean => isbot(`Mozilla/5.0 (${userAgent} Person)`);

/** Whether the agent is a crawler, fetcher or tool rather than a person's browser. */
export function isBotAgent(userAgent: string): boolean {
  // Masking only matters for what isbot flags, so most agents are looked at once.
  if (!isbot(userAgent)) return false;
  const masked = maskPersonTokens(userAgent);
  const browser = withoutHomepage(masked);
  if (browser !== undefined) return hasBotWord(browser);
  return isbot(masked) && (!PERSON_PRODUCT.test(masked) || hasBotWord(masked));
}
