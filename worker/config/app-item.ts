/** Which configured app item serves a platform (docs/config.md `appData[].plat`). */
import type { AppItem } from '../../shared/config/schema.ts';

/** `plat` 1 is Android, 2 iOS, 3 both. */
export type Plat = 1 | 2 | 3;

/** The item for `plat`, else the one for both platforms. */
export function appItemFor(appData: readonly AppItem[], plat: Plat): AppItem | undefined {
  return appData.find((item) => item.plat === plat) ?? appData.find((item) => item.plat === 3);
}
