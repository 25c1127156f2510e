/** Whether the debug console is asked for (PRODUCT.md §8): `?debug=1`, or the config's switch. */
export function wantsDebugConsole(search: string, debug: boolean | undefined): boolean {
  return debug === true || new URLSearchParams(search).get('debug') === '1';
}
