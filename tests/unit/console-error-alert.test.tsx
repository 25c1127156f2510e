/** A console panel's failure (docs/operators.md): one alert a screen reader announces, or nothing. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorAlert } from '../../client/app/admin/shared/error-alert.tsx';

describe("a console panel's error", () => {
  it('is said in an alert', () => {
    expect(renderToStaticMarkup(<ErrorAlert message="Not signed in" />)).toBe(
      '<p class="error" role="alert">Not signed in</p>',
    );
  });

  it('leaves no empty alert behind when there is none', () => {
    expect(renderToStaticMarkup(<ErrorAlert message={null} />)).toBe('');
    expect(renderToStaticMarkup(<ErrorAlert message="" />)).toBe('');
    expect(renderToStaticMarkup(<ErrorAlert message={undefined} />)).toBe('');
  });

  it('escapes what an answer put in the message', () => {
    expect(renderToStaticMarkup(<ErrorAlert message={'<img src=x onerror=alert(1)>'} />)).not.toContain('<img');
  });
});
