import { describe, expect, it } from 'vitest';
import { contentHash } from '../../scripts/lib/build-id-plugin.ts';
import { BUILD_ID_PATTERN } from '../../shared/build-manifest.ts';

const files = [
  { fileName: 'assets/entry-a.js', content: 'console.log(1)' },
  { fileName: 'assets/entry-a.css', content: new TextEncoder().encode('.a{}') },
];

describe('the build id', () => {
  it('is the same for the same files, whatever order they come in', () => {
    expect(contentHash(files, [])).toBe(contentHash([...files].reverse(), []));
  });

  it('changes when any file changes, even the stylesheet alone', () => {
    const changed = [files[0], { fileName: 'assets/entry-a.css', content: '.a{color:red}' }].flatMap((f) => f ?? []);
    expect(contentHash(changed, [])).not.toBe(contentHash(files, []));
  });

  it('changes when a file is renamed', () => {
    const renamed = files.map((f) => ({ ...f, fileName: f.fileName.replace('-a', '-b') }));
    expect(contentHash(renamed, [])).not.toBe(contentHash(files, []));
  });

  it('changes when the route rules change', () => {
    const rules = [{ path: '/x', redirect: { to: '/' } }];
    expect(contentHash(files, rules)).not.toBe(contentHash(files, []));
  });

  it('is a valid build id', () => {
    expect(contentHash(files, [])).toMatch(BUILD_ID_PATTERN);
  });
});
