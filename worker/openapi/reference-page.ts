/**
 * The API reference page (`GET /api/docs`): the OpenAPI document as HTML a person reads, one
 * section per path and method with its parameters, body and answers. Every text from the document
 * is escaped; the schemas are shown as the document holds them.
 */

type Json = Record<string, unknown>;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const schemaBlock = (schema: unknown): string =>
  schema === undefined ? '' : `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;

/** The schemas of a body or an answer, per media type. */
function contentBlocks(content: unknown): string {
  if (!isJson(content)) return '';
  return Object.entries(content)
    .map(
      ([type, media]) =>
        `<p class="media">${escapeHtml(type)}</p>${schemaBlock(isJson(media) ? media.schema : undefined)}`,
    )
    .join('');
}

function operation(path: string, method: string, op: Json): string {
  const parameters = Array.isArray(op.parameters) ? op.parameters.filter(isJson) : [];
  const body = isJson(op.requestBody) ? op.requestBody : undefined;
  const responses = isJson(op.responses) ? Object.entries(op.responses) : [];
  const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, '-');
  return `<section class="op" id="${escapeHtml(id)}">
<h2><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code>${op.security ? ' <span class="admin">admin</span>' : ''}</h2>
<p>${escapeHtml(text(op.summary))}</p>${op.description ? `<p>${escapeHtml(text(op.description))}</p>` : ''}
${parameters.length > 0 ? `<h3>Parameters</h3><ul>${parameters.map((p) => `<li><code>${escapeHtml(text(p.name))}</code> (in ${escapeHtml(text(p.in))}${p.required ? ', required' : ''})${schemaBlock(p.schema)}</li>`).join('')}</ul>` : ''}
${body ? `<h3>Body</h3>${contentBlocks(body.content)}` : ''}
<h3>Answers</h3><dl>${responses
    .map(
      ([status, response]) =>
        `<dt>${escapeHtml(status)}</dt><dd>${isJson(response) ? escapeHtml(text(response.description)) + contentBlocks(response.content) : ''}</dd>`,
    )
    .join('')}</dl>
</section>`;
}

/** The page of `document`. */
export function referenceHtml(document: Json): string {
  const info = isJson(document.info) ? document.info : {};
  const paths = isJson(document.paths) ? Object.entries(document.paths) : [];
  const operations = paths.flatMap(([path, item]) =>
    isJson(item)
      ? Object.entries(item).flatMap(([method, op]) => (isJson(op) ? [operation(path, method, op)] : []))
      : [],
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(text(info.title))}</title><link rel="stylesheet" href="/api/docs.css"></head>
<body><main><h1>${escapeHtml(text(info.title))}</h1><p>${escapeHtml(text(info.description))}</p>
<p>The same as OpenAPI 3.1: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${operations.join('\n')}
</main></body></html>`;
}

/** The page's stylesheet. */
export const referenceCss = `body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#14171a;background:#f5f7f9}
main{max-width:920px;margin:0 auto;padding:16px 20px 48px}
.op{background:#fff;border-radius:12px;padding:4px 20px 12px;margin:16px 0;box-shadow:0 1px 2px rgba(20,23,26,.08)}
h2{font-size:1.1rem}.method{color:#099d56}.admin{font-size:.75rem;color:#5b6670;border:1px solid #cfd6dd;border-radius:6px;padding:1px 6px}
pre{background:#f0f3f5;border-radius:8px;padding:8px 12px;overflow-x:auto;font-size:.8rem;max-height:360px}
.media{color:#5b6670;margin:4px 0;font-size:.85rem}dt{font-weight:600}dd{margin:0 0 8px 16px}`;
