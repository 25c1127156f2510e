/**
 * A Vite plugin that lets the bundler drop React Router components the app never renders
 * (`Form`, `NavLink`, and with `Form` the whole form-submission code) from the browser bundle.
 *
 * React Router's build defines them as `var Form = React.forwardRef(...)` followed by
 * `Form.displayName = "Form"`: a call with no `@__PURE__` mark and a property write, both of which
 * a bundler must keep. Marking the `forwardRef` calls pure and removing those `displayName` lines
 * (read only by developer tools) makes unused components dead code; used ones (`Link`) stay.
 * See docs/decisions/003-trim-react-router-for-the-js-budget.md.
 */
import type { Plugin } from 'vite';

const CHUNK = /[\\/]react-router[\\/]dist[\\/]production[\\/][^\\/]+\.mjs$/;

export function pureReactRouter(): Plugin {
  return {
    name: 'lander:pure-react-router',
    enforce: 'pre',
    transform(code, id) {
      if (!CHUNK.test(id)) return null;
      const names = [...code.matchAll(/^var (\w+) = React\d*\.forwardRef\(/gm)].map((m) => m[1]);
      if (names.length === 0) return null;
      let out = code.replace(/^(var \w+ = )(React\d*\.forwardRef\()/gm, '$1/* @__PURE__ */ $2');
      for (const name of names) out = out.replace(new RegExp(`^${name}\\.displayName = "[^"]*";$`, 'gm'), '');
      return { code: out, map: null };
    },
  };
}
