/**
 * Tencent Ads (腾讯广告) conversion callback (docs/conversions.md#tencent-ads): Marketing API's
 * `user_actions/add` into the account's data source, the tap's click id (`gdt_vid` from WeChat, else
 * `qz_gdt`) as `trace.click_id`, Lander's event id as `outer_action_id` (Tencent de-duplicates on it),
 * and a value in renminbi as `action_param.value` in fen. An install whose tap carried no Tencent
 * click id is not Tencent's to hear of: no request.
 */
import { toBase64Url } from '../../../shared/base64url.ts';
import type { Platform } from './platform.ts';
import { fenOf, isRefund, JSON_HEADERS } from './platform.ts';

export const tencent: Platform<'tencent'> = {
  // 激活应用, 注册, 购买 in the action types; an open (START_APP) asks for retention parameters: only when mapped.
  defaults: { install: 'ACTIVATE_APP', register: 'REGISTER', purchase: 'PURCHASE' },
  sendsOtherEvents: false,
  build({ event, name, settings, token }) {
    const clickId = event.ad?.gdt_vid ?? event.ad?.qz_gdt;
    if (!clickId || isRefund(event)) return null;
    const action: Record<string, unknown> = {
      outer_action_id: event.id,
      action_time: Math.floor(event.at / 1000),
      action_type: name,
      trace: { click_id: clickId },
    };
    const fen = fenOf(event);
    if (fen !== null) action.action_param = { value: fen };
    // The global parameters: the token, the time of the call (within 300 s of Tencent's) and a fresh nonce.
    const query = new URLSearchParams({
      access_token: token,
      timestamp: String(Math.floor(Date.now() / 1000)),
      nonce: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
    });
    return {
      method: 'POST',
      url: `https://api.e.qq.com/v1.3/user_actions/add?${query}`,
      headers: { ...JSON_HEADERS },
      body: JSON.stringify({
        account_id: Number(settings.accountId),
        user_action_set_id: Number(settings.userActionSetId),
        actions: [action],
      }),
    };
  },
};
