/**
 * What the links room's preview editor and variants editor send (client/app/admin/links/): a link's
 * preview from its form (empty fields left out, none at all is `null`), a variant's preview kept with
 * its words, and a refusal of a variant's preview field marked on that field.
 */
import { describe, expect, it } from 'vitest';
import { adminTexts } from '../../client/app/admin/admin-texts.ts';
import { previewOf } from '../../client/app/admin/links/link-preview-editor.tsx';
import { experimentOf, refusalsOf } from '../../client/app/admin/links/variants-editor.tsx';
import { HttpError } from '../../client/app/http-client.ts';

describe("a link's preview form", () => {
  it('sends the fields filled, trimmed, and null for none', () => {
    expect(previewOf({ title: ' Notes ', description: '', image: 'none', url: 'https://x.example/a.png' })).toEqual({
      title: 'Notes',
    });
    expect(previewOf({ title: '', description: 'Free', image: 'card', url: '' })).toEqual({
      description: 'Free',
      image: 'card',
    });
    expect(previewOf({ title: '', description: '', image: 'url', url: 'https://x.example/a.png' })).toEqual({
      image: 'https://x.example/a.png',
    });
    expect(previewOf({ title: ' ', description: '', image: 'url', url: ' ' })).toBeNull();
  });
});

describe("a variant's preview in the variants editor", () => {
  const row = (fields: Record<string, string>) => ({
    key: 0,
    name: 'b',
    weight: '1',
    headline: '',
    text: '',
    button: '',
    image: '',
    previewTitle: '',
    previewDescription: '',
    previewImage: '',
    ...fields,
  });

  it('is sent with the variant, and left out when empty', () => {
    expect(
      experimentOf([row({ headline: 'H', previewTitle: 'Card', previewImage: 'https://x.example/b.png' })], null),
    ).toEqual({
      variants: [{ name: 'b', weight: 1, headline: 'H', preview: { title: 'Card', image: 'https://x.example/b.png' } }],
      event: null,
    });
    expect(experimentOf([row({})], null).variants[0]).toEqual({ name: 'b', weight: 1 });
  });

  it("marks the refused preview field with the worker's reason", () => {
    const refusal = (error: string) => new HttpError(400, { cause: { data: { error } } });
    const t = adminTexts('en');
    expect(refusalsOf(refusal('variants.1.preview.image: image is an https URL'), t)).toEqual({
      '1.previewImage': 'image is an https URL',
    });
    expect(refusalsOf(refusal('variants.0.headline: headline is blank'), t)).toEqual({
      '0.headline': 'headline is blank',
    });
  });
});
