import { describe, expect, it } from 'vitest';
import { detectDevice } from '../../shared/device.ts';
import { appOsVersion, reportedOs, sameVersion } from '../../worker/attribution/os-version.ts';
import { UA } from '../fixtures/agents.ts';

const os = (userAgent: string, hints = {}) => reportedOs(detectDevice({ userAgent }), hints);

describe('reportedOs: the OS version a visit really reports', () => {
  it("iOS Safari before 26: the agent's own major.minor", () => {
    expect(os(UA.iPhoneSafari)).toEqual({ family: 'ios', version: '17.0', model: null });
  });

  it('Safari 26 freezes the agent at 18_6: its Version token tells the system', () => {
    const agent =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.1 Mobile/15E148 Safari/604.1';
    expect(os(agent)?.version).toBe('26');
  });

  it('an iOS 26 webview (frozen 18_6, no Version token): not known', () => {
    const agent =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.61';
    expect(os(agent)?.version).toBeNull();
  });

  it('a real iOS 18.6 in Safari 18.6 is 18.6', () => {
    const agent =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1';
    expect(os(agent)?.version).toBe('18.6');
  });

  it("Chrome's reduced agent (Android 10; K): neither version nor model is known", () => {
    expect(os(UA.androidChromeReduced)).toEqual({ family: 'android', version: null, model: null });
  });

  it("Chrome's reduced agent with client hints: the hints' version and model", () => {
    expect(os(UA.androidChromeReduced, { platformVersion: '14.0.0', model: 'SM-S911B' })).toEqual({
      family: 'android',
      version: '14',
      model: 'SM-S911B',
    });
  });

  it('a full Android agent: its version and model', () => {
    expect(os(UA.androidChrome)).toEqual({ family: 'android', version: '14', model: 'Pixel 8' });
  });

  it('HarmonyOS NEXT is its own family; HarmonyOS 2–4 run Android apps', () => {
    expect(os(UA.harmonyNext)).toEqual({ family: 'harmony', version: '5', model: null });
    expect(os(UA.harmony4)?.family).toBe('android');
  });

  it('a desktop installs no app', () => {
    expect(os(UA.desktop)).toBeNull();
  });
});

describe('appOsVersion and sameVersion', () => {
  it('keeps major.minor on iOS and the major elsewhere', () => {
    expect(appOsVersion('ios', '17.5.1')).toBe('17.5');
    expect(appOsVersion('ios', '26')).toBe('26.0');
    expect(appOsVersion('android', '14.0.0')).toBe('14');
    expect(appOsVersion('harmony', '5.0.1')).toBe('5');
  });

  it('compares at the precision both sides have, and an unknown side never decides', () => {
    expect(sameVersion('17.5', '17.5')).toBe(true);
    expect(sameVersion('26', '26.1')).toBe(true);
    expect(sameVersion('17.5', '17.6')).toBe(false);
    expect(sameVersion('14', '13')).toBe(false);
    expect(sameVersion(null, '13')).toBe(true);
  });
});
