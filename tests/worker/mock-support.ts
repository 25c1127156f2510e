/**
 * Lets `vi.mock` replace a module that the app imports lazily (a screen) inside workerd. Vitest's
 * module mocker calls `AsyncLocalStorage.prototype.disable()` once a mock factory has run, and
 * workerd's node:async_hooks throws "not implemented" there, which fails the lazy import — the
 * route would then error for that reason instead of the behaviour under test. `disable()` only
 * releases the store's context early; a no-op keeps the semantics vitest relies on.
 * Import this before `vi.mock` in any worker test that mocks a lazily imported module.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

try {
  new AsyncLocalStorage().disable();
} catch {
  AsyncLocalStorage.prototype.disable = function disable(): void {};
}
