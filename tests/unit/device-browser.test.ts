/**
 * Browser-side detection (docs/device.md): the same function with the screen, touch points,
 * orientation support and Telegram's objects, which only the browser sees.
 */
import { describe, expect, it } from 'vitest';
import { detectDevice, type Screen } from '../../shared/device.ts';
import { DESKTOP_AGENTS, IPAD_MAC_AGENT, UA } from '../fixtures/agents.ts';

const PHONE: Screen = { width: 390, height: 844, touchPoints: 5, orientation: true };
const LAPTOP: Screen = { width: 1440, height: 900, touchPoints: 0, orientation: true };
const TELEGRAM_ANDROID = UA.telegramAndroid;
const LINUX = DESKTOP_AGENTS.find((d) => d.os === 'Linux')?.agent ?? '';

describe('detection in the browser', () => {
  it('fills width and height from the screen', () => {
    expect(detectDevice({ userAgent: LINUX, screen: LAPTOP })).toMatchObject({ width: 1440, height: 900 });
  });

  it('is mobile for a small touch screen with orientation support', () => {
    expect(detectDevice({ userAgent: LINUX, screen: PHONE }).mobile).toBe(true);
    expect(detectDevice({ userAgent: LINUX, screen: { ...PHONE, width: 1280, height: 500 } }).mobile).toBe(true);
  });

  it('is not mobile for a small screen without touch or without orientation support', () => {
    expect(detectDevice({ userAgent: LINUX, screen: { ...PHONE, touchPoints: 0 } }).mobile).toBe(false);
    expect(detectDevice({ userAgent: LINUX, screen: { ...PHONE, orientation: false } }).mobile).toBe(false);
  });

  it('is not mobile for a large touch screen without a phone brand', () => {
    expect(detectDevice({ userAgent: LINUX, screen: { ...LAPTOP, touchPoints: 10 } }).mobile).toBe(false);
  });

  it('is mobile for a phone brand whatever the screen', () => {
    const pixel = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36';
    expect(detectDevice({ userAgent: pixel, screen: LAPTOP }).mobile).toBe(true);
  });

  it('turns a Mac agent with touch into an iPad on iOS, with its version and model', () => {
    const device = detectDevice({
      userAgent: IPAD_MAC_AGENT,
      screen: { width: 820, height: 1180, touchPoints: 5, orientation: true },
    });
    expect(device).toMatchObject({
      operatingSystem: 'iOS',
      os: 'iOS',
      osVersion: '17.5',
      device_system_name: 'iPadOS',
      device_model: 'iPad',
      device_model_name: 'Apple iPad',
      mobile: true,
    });
  });

  it('keeps a Mac without touch (or with one emulated touch point) a PC', () => {
    expect(detectDevice({ userAgent: IPAD_MAC_AGENT, screen: LAPTOP }).operatingSystem).toBe('PC');
    expect(detectDevice({ userAgent: IPAD_MAC_AGENT, screen: { ...LAPTOP, touchPoints: 1 } }).operatingSystem).toBe(
      'PC',
    );
  });

  it('applies the iOS in-app policy to an iPad found behind a Mac agent', () => {
    const wechat = `${IPAD_MAC_AGENT} MicroMessenger/8.0.49 NetType/WIFI`;
    expect(detectDevice({ userAgent: wechat }).inApp?.blocksSchemes).toBe(false);
    expect(detectDevice({ userAgent: wechat, screen: { ...PHONE, width: 820, height: 1180 } }).inApp).toMatchObject({
      name: 'WeChat',
      blocksSchemes: true,
      universalLinks: true,
    });
  });

  it('makes Telegram in-app once the browser sees Telegram’s objects', () => {
    expect(detectDevice({ userAgent: TELEGRAM_ANDROID, screen: PHONE }).inApp).toBeNull();
    expect(detectDevice({ userAgent: TELEGRAM_ANDROID, screen: PHONE, telegram: true }).inApp).toMatchObject({
      name: 'Telegram',
      category: 'messaging',
    });
  });

  it('takes navigator.language as the locale', () => {
    expect(detectDevice({ userAgent: LINUX, acceptLanguage: 'en-GB' })).toMatchObject({
      device_locale: 'en-GB',
      language: 'en',
    });
  });
});
