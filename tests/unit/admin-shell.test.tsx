/**
 * `/admin` as the worker renders it (client/app/admin/admin-shell.tsx, the `workerd` side of
 * `#admin-page`) is the console's own first render, in each language: the page hydrates as it is,
 * and the console itself stays out of the worker's bundle.
 */
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Component as Console } from '../../client/app/admin/admin-page.tsx';
import { Component as Shell } from '../../client/app/admin/admin-shell.tsx';
import { createLearnedStore, StoreProvider } from '../../client/app/store.tsx';
import type { Handoff } from '../../shared/handoff.ts';
import type { Language } from '../../shared/texts.ts';

const LANGUAGES: Language[] = ['en', 'zh-CN'];

const rendered = (screen: () => React.ReactNode, language: string) => {
  const handoff = { language, base: '', buildId: 'b1' } as unknown as Handoff;
  return renderToStaticMarkup(
    <StoreProvider handoff={handoff} learned={createLearnedStore(handoff)}>
      {screen()}
    </StoreProvider>,
  );
};

describe("the worker's /admin", () => {
  it.each(LANGUAGES)("is the console's first render in %s", (language) => {
    const shell = rendered(() => <Shell />, language);
    expect(shell).toContain('data-session="checking"');
    expect(shell).toBe(rendered(() => <Console />, language));
  });

  it('is what the worker bundles in place of the console (package.json imports, condition workerd)', () => {
    const { imports } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(imports['#admin-page']).toEqual({
      workerd: './client/app/admin/admin-shell.tsx',
      default: './client/app/admin/admin-page.tsx',
    });
  });
});
