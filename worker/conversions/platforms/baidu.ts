/**
 * Baidu (百度) OCPC conversion callback (docs/conversions.md#baidu): `uploadConvertData` with the
 * account's token, the landing page's address with the tap's `bd_vid` as `logidUrl`, the conversion
 * type `newType` and a value in renminbi as `convertValue` in fen. Baidu's conversion types are the
 * numbers the account's conversion tracking lists, so a destination sends only the events it maps
 * (`{"install": "<newType>"}`). A tap without `bd_vid` is not Baidu's: no request.
 */
import type { Platform } from './platform.ts';
import { fenOf, isRefund, JSON_HEADERS } from './platform.ts';

export const baidu: Platform<'baidu'> = {
  defaults: {},
  sendsOtherEvents: false,
  build({ event, name, settings, token }) {
    const bdVid = event.ad?.bd_vid;
    if (!bdVid || isRefund(event) || !/^\d{1,4}$/.test(name)) return null;
    const page = new URL(settings.pageUrl);
    page.searchParams.set('bd_vid', bdVid);
    const conversion: Record<string, unknown> = {
      logidUrl: page.href,
      newType: Number(name),
      convertTime: Math.floor(event.at / 1000),
    };
    // 0 Android, 1 iOS, 2 other: known of an install only.
    if (event.platform) conversion.deviceType = event.platform === 'android' ? 0 : event.platform === 'ios' ? 1 : 2;
    const fen = fenOf(event);
    if (fen !== null) conversion.convertValue = fen;
    return {
      method: 'POST',
      url: 'https://ocpc.baidu.com/ocpcapi/api/uploadConvertData',
      headers: { ...JSON_HEADERS },
      body: JSON.stringify({ token, conversionTypes: [conversion] }),
    };
  },
};
