/**
 * The fraud rules' listener (docs/fraud.md): an install decided is flagged, a user identified may
 * flag the installs it credited; every other fact raises nothing. Flags are the operator's, decided
 * after the response: a failure is logged and flags nothing, never an error for the app.
 */
import { appSalt } from '../apps/app-keys.ts';
import type { Fact, RaisedFlags, Scene } from '../facts.ts';
import { settingsOf } from '../settings.ts';
import { flagInstall } from './flag-install.ts';
import { flagIdentified } from './identify.ts';

const NONE: Promise<RaisedFlags[]> = Promise.resolve([]);

async function flag({ env, app, config }: Scene, fact: Fact): Promise<RaisedFlags[]> {
  // The app's own key (apps/app-keys.ts): its users and networks are hashed apart from another app's.
  const salt = appSalt(settingsOf(env).attributionSalt ?? '', app);
  if (fact.fact === 'user-identified') return flagIdentified(env, app, salt, fact);
  if (fact.fact !== 'install-decided') return [];
  // Without a loaded configuration no floor is known, so nothing is too fast.
  const tooFastSeconds = config?.fraud.too_fast_seconds ?? 0;
  return [{ install: fact.key, flags: await flagInstall(env, app, salt, tooFastSeconds, fact) }];
}

/** The flags `fact` raises, decided and kept in D1 after the response; `[]` when it raises none or flagging failed. */
export function flagFact(scene: Scene, fact: Fact): Promise<RaisedFlags[]> {
  if (fact.fact !== 'install-decided' && fact.fact !== 'user-identified') return NONE;
  const raised = flag(scene, fact).catch((error: unknown) => {
    console.error(
      fact.fact === 'install-decided' ? 'Install not flagged' : 'Identity not kept',
      error instanceof Error ? error.message : String(error),
    );
    return [];
  });
  scene.ctx.waitUntil(raised);
  return raised;
}
