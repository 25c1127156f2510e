// Types `exports.default` (cloudflare:workers) in tests as this worker's default export.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import('./index.ts');
  }
}
