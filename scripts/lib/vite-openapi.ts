/**
 * Writes the OpenAPI document (worker/openapi/document.ts) and its reference page into the client
 * build's assets, once per build: `GET /api/openapi.json` and `GET /api/docs` serve them from there
 * (worker/openapi/routes.ts), so the document's code and the JSON Schema converter stay out of the
 * worker's bundle.
 */
import type { Plugin } from 'vite';
import { OPENAPI_ASSET, REFERENCE_ASSET } from '../../worker/openapi/assets.ts';

export function openApiAssets(): Plugin {
  return {
    name: 'lander:openapi-assets',
    apply: 'build',
    async generateBundle() {
      const { openApiDocument } = await import('../../worker/openapi/document.ts');
      const { referenceHtml } = await import('../../worker/openapi/reference-page.ts');
      const document = openApiDocument();
      this.emitFile({ type: 'asset', fileName: OPENAPI_ASSET, source: JSON.stringify(document) });
      this.emitFile({ type: 'asset', fileName: REFERENCE_ASSET, source: referenceHtml(document) });
    },
  };
}
