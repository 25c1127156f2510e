/** Whether the debug console is asked for (docs/builds.md): `?debug=1`, or the config's switch. */
export function wantsDebugConsole(search: string, debug: boolean | undefined): boolean {
  return debug === true || new URLSearchParams(search).get('debug') === '1';
}
