/**
 * The links room's source label (client/app/admin/links/link-source.tsx): a link the app made for its
 * user says so, in English and in Chinese; an operator's link shows nothing.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { adminTexts } from '../../client/app/admin/admin-texts.ts';
import { LinkSource } from '../../client/app/admin/links/link-source.tsx';

describe("a link's source in the links room", () => {
  it("labels an app's invite link, in English and in Chinese", () => {
    expect(renderToStaticMarkup(<LinkSource link={{ source: 'app' }} t={adminTexts('en')} />)).toBe(
      '<span class="link-source" title="Made by the app for its signed-in user (an invite link)">from the app</span>',
    );
    expect(renderToStaticMarkup(<LinkSource link={{ source: 'app' }} t={adminTexts('zh-CN')} />)).toContain('来自应用');
  });

  it("shows nothing for an operator's link", () => {
    expect(renderToStaticMarkup(<LinkSource link={{ source: 'operator' }} t={adminTexts('en')} />)).toBe('');
  });
});
