/**
 * The OpenAPI document (worker/openapi/document.ts, docs/api.md): valid OpenAPI 3.1 by a real
 * validator, every schema in it a JSON Schema 2020-12 that compiles, and generated from the routes'
 * own schemas (a field added to a request schema is in the document).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../worker/openapi/document.ts';
import { clickBody, installBody, PHONES } from '../fixtures/fake-app.ts';

type Json = Record<string, unknown>;
const doc = openApiDocument() as { paths: Record<string, Record<string, Json>> };

/** Every schema object of the document with where it is. */
function schemasOf(value: unknown, at = ''): [string, Json][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]): [string, Json][] =>
    key === 'schema' && typeof inner === 'object' && inner !== null
      ? [[`${at}/${key}`, inner as Json]]
      : schemasOf(inner, `${at}/${key}`),
  );
}

function requestSchema(path: string): Json {
  const requestBody = doc.paths[path]?.post?.requestBody as { content: Record<string, { schema: Json }> } | undefined;
  const schema = requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`no body schema for ${path}`);
  return schema;
}

const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));

describe('GET /api/openapi.json', () => {
  it('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse: the same document without its info is no OpenAPI.
    const { info: _, ...broken } = structuredClone(doc) as Json;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('holds only schemas that compile as JSON Schema 2020-12 in strict mode', () => {
    const schemas = schemasOf(doc.paths);
    expect(schemas.length).toBeGreaterThan(20);
    for (const [at, schema] of schemas) expect(() => ajv.compile(schema), at).not.toThrow();
  });

  it('describes every public API', () => {
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/a/click',
        '/api/a/install',
        '/api/a/open',
        '/api/a/event',
        '/api/device',
        '/api/trace',
        '/api/links',
        '/api/stats',
        '/api/cohorts',
        '/s/{slug}.svg',
        '/s/{slug}.png',
      ]),
    );
    expect(Object.keys(doc.paths['/api/links'] ?? {})).toEqual(['get', 'post']);
  });

  it('describes every call of the webhooks admin API, each with the path parameter it takes', () => {
    const methods = Object.fromEntries(
      Object.entries(doc.paths)
        .filter(([path]) => path.startsWith('/api/webhooks'))
        .map(([path, item]) => [path, Object.keys(item)]),
    );
    expect(methods).toEqual({
      '/api/webhooks': ['get', 'post'],
      '/api/webhooks/install-key': ['get'],
      '/api/webhooks/{id}': ['get', 'patch', 'delete'],
      '/api/webhooks/{id}/rotate': ['post'],
      '/api/webhooks/{id}/test': ['post'],
      '/api/webhooks/{id}/attempts': ['get'],
      '/api/webhooks/{id}/resend': ['post'],
    });
    for (const [path, item] of Object.entries(doc.paths).filter(([path]) => path.includes('{id}'))) {
      for (const operation of Object.values(item)) {
        const parameters = operation.parameters as { name: string; in: string; required: boolean }[];
        expect(parameters[0], path).toMatchObject({ name: 'id', in: 'path', required: true });
      }
    }
  });

  it("describes every call of the privacy API, with its route's own body", () => {
    const methods = Object.fromEntries(
      Object.entries(doc.paths)
        .filter(([path]) => path.startsWith('/api/privacy'))
        .map(([path, item]) => [path, Object.keys(item)]),
    );
    expect(methods).toEqual({
      '/api/privacy/requests': ['get', 'post'],
      '/api/privacy/requests/{id}': ['get', 'delete'],
      '/api/privacy/requests/{id}/data': ['get'],
      '/api/privacy/receipt-key': ['get'],
    });
    const make = ajv.compile(requestSchema('/api/privacy/requests'));
    const identity = { identity_type: 'install_id', identity_value: 'A1B2-C3', identity_format: 'raw' };
    const request = {
      subject_request_type: 'erasure',
      subject_identities: [identity],
      property_id: 'com.pebble.notes',
      submitted_time: '2026-11-26T09:00:00Z',
    };
    expect(make(request)).toBe(true);
    expect(make({ ...request, subject_request_type: 'delete' })).toBe(false);
    expect(make({ ...request, subject_identities: [{ ...identity, identity_format: 'sha256' }] })).toBe(false);
    expect(make({ ...request, subject_identities: [identity, identity] })).toBe(false);
  });

  it("holds the webhooks routes' own bodies: what they take validates, what they refuse does not", () => {
    const create = ajv.compile(requestSchema('/api/webhooks'));
    expect(create({ url: 'https://hooks.example.com/lander' })).toBe(true);
    expect(create({ url: 'https://hooks.example.com/', events: ['install', 'click'], enabled: false })).toBe(true);
    expect(create({ url: 'https://hooks.example.com/', events: [] })).toBe(false);
    expect(create({ url: 'https://hooks.example.com/', events: ['purchase'] })).toBe(false);
    expect(create({ url: 'https://hooks.example.com/', secret: 'mine' })).toBe(false);
    expect(create({ events: ['install'] })).toBe(false);
    const update = doc.paths['/api/webhooks/{id}']?.patch?.requestBody as {
      content: Record<string, { schema: Json }>;
    };
    const patch = ajv.compile(update.content['application/json']?.schema ?? {});
    expect(patch({ enabled: true })).toBe(true);
    expect(patch({ description: 'x'.repeat(201) })).toBe(false);
    const resend = ajv.compile(requestSchema('/api/webhooks/{id}/resend'));
    expect(resend({ id: 'msg_4hV1xw0C8h3TfN2sQm9kzA' })).toBe(true);
    expect(resend({ from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' })).toBe(true);
    expect(resend({ id: 'not-a-webhook-id' })).toBe(false);
    expect(resend({ from: '2026-11-01T00:00:00Z' })).toBe(false);
  });

  it('describes every webhook Lander sends, each body its payload schema', () => {
    const hooks = (doc as unknown as { webhooks: Record<string, { post: Json }> }).webhooks;
    expect(Object.keys(hooks)).toEqual([
      'install',
      'open',
      'event',
      'click',
      'link.created',
      'link.updated',
      'link.deleted',
    ]);
    const install = hooks.install?.post.requestBody as { content: Record<string, { schema: Json }> };
    const valid = ajv.compile(install.content['application/json']?.schema ?? {});
    const data = {
      app: 'com.pebble.notes',
      platform: 'ios',
      install: 'x1',
      matched: true,
      method: 'clipboard',
      confidence: 100,
      campaign: { channel: 'spring' },
      clickedAt: '2026-11-25T06:40:12.345Z',
      reason: null,
      flags: [],
      country: 'CN',
    };
    expect(valid({ type: 'install', timestamp: '2026-11-25T06:41:00.000Z', data })).toBe(true);
    expect(valid({ type: 'open', timestamp: '2026-11-25T06:41:00.000Z', data })).toBe(false);
    expect(valid({ type: 'install', timestamp: '2026-11-25T06:41:00.000Z', data: { ...data, method: 'guess' } })).toBe(
      false,
    );
  });

  it("is the routes' own schemas: what the worker takes validates, what it refuses does not", () => {
    const install = ajv.compile(requestSchema('/api/a/install'));
    const body = installBody(PHONES.galaxyS23, 'install-0001', { playReferrer: 'x' });
    expect(install(body)).toBe(true);
    expect(install({ ...body, test: true })).toBe(true);
    expect(install({ ...body, test: 'yes' })).toBe(false);
    expect(install({ ...body, extra: 1 })).toBe(false);
    expect(install({ ...body, installId: 'short' })).toBe(false);
    const click = ajv.compile(requestSchema('/api/a/click'));
    expect(click(clickBody(PHONES.iPhone15))).toBe(true);
    expect(click({ ...clickBody(PHONES.iPhone15), action: 'buy' })).toBe(false);
  });

  it('takes both forms of an app event, and a batch of at most 50', () => {
    const event = ajv.compile(requestSchema('/api/a/event'));
    const base = { app: 'com.pebble.notes', installId: 'install-0001' };
    expect(event({ ...base, name: 'signup' })).toBe(true);
    expect(event({ ...base, id: 'evt-00000001', name: 'signup', value: 2 })).toBe(true);
    expect(event({ ...base, events: [{ id: 'evt-00000001', name: 'signup' }] })).toBe(true);
    expect(event({ ...base, events: [] })).toBe(false);
    const many = Array.from({ length: 51 }, (_, i) => ({ id: `evt-${10_000 + i}`, name: 'signup' }));
    expect(event({ ...base, events: many })).toBe(false);
  });
});
