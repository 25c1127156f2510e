/**
 * The Expo config plugin of @lander/sdk (development builds; docs/sdk.md#expo): what the app's native
 * projects need that autolinking does not add. In app.json:
 *   "plugins": [["@lander/sdk", { "url": "https://get.pebble-notes.example" }]]
 * - `url` (the Lander deployment): `open(url)` gets the app's own links. iOS: the associated domain
 *   `applinks:<host>` (Universal Links); Android: a verified (`autoVerify`) `https://<host>` intent
 *   filter for each of `paths` (default `["/open/*"]`, the worker's default `links.paths`).
 * - Android, unless `playReferrer: false`: the Install Referrer client's permission and Play's package
 *   in `<queries>` (Android 11+ package visibility), so the merged manifest has them whatever the
 *   referrer library's version.
 * The native modules themselves (`@react-native-clipboard/clipboard`,
 * `@react-native-async-storage/async-storage`, `react-native-play-install-referrer`) are autolinked.
 * CommonJS, as Expo loads plugins with `require`; `expo/config-plugins` is the app's own copy.
 */
const pkg = require('./package.json');

const REFERRER_PERMISSION = 'com.google.android.finsky.permission.BIND_GET_INSTALL_REFERRER_SERVICE';
const PLAY_STORE = 'com.android.vending';

function configPlugins() {
  try {
    return require('expo/config-plugins');
  } catch {
    return require('@expo/config-plugins');
  }
}

/** The host of the deployment's `url`; throws naming the option when it is not an https URL. */
function hostOf(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`@lander/sdk plugin: "url" must be the Lander deployment's https URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:') throw new Error(`@lander/sdk plugin: "url" must use https, got ${url}`);
  return parsed.host;
}

/** An Android intent filter's data for one apple-app-site-association path (`*` any characters, `?` one). */
function androidData(host, path) {
  if (!path.startsWith('/')) throw new Error(`@lander/sdk plugin: each of "paths" must start with /, got ${path}`);
  const prefix = path.endsWith('*') ? path.slice(0, -1) : null;
  if (prefix !== null && !/[*?]/.test(prefix)) return { scheme: 'https', host, pathPrefix: prefix };
  return { scheme: 'https', host, pathPattern: path.replace(/\*/g, '.*').replace(/\?/g, '.') };
}

function withLinks(config, host, paths) {
  const domain = `applinks:${host}`;
  const ios = config.ios ?? {};
  const domains = ios.associatedDomains ?? [];
  const android = config.android ?? {};
  return {
    ...config,
    ios: { ...ios, associatedDomains: domains.includes(domain) ? domains : [...domains, domain] },
    android: {
      ...android,
      intentFilters: [
        ...(android.intentFilters ?? []),
        {
          action: 'VIEW',
          autoVerify: true,
          data: paths.map((path) => androidData(host, path)),
          category: ['BROWSABLE', 'DEFAULT'],
        },
      ],
    },
  };
}

/** The referrer client's permission and Play's package visibility in the app's AndroidManifest.xml. */
function withPlayReferrer(config) {
  return configPlugins().withAndroidManifest(config, (mod) => {
    const manifest = mod.modResults.manifest;
    const permissions = manifest['uses-permission'] ?? [];
    if (!permissions.some((p) => p.$?.['android:name'] === REFERRER_PERMISSION)) {
      permissions.push({ $: { 'android:name': REFERRER_PERMISSION } });
    }
    manifest['uses-permission'] = permissions;
    const queries = manifest.queries?.length ? manifest.queries : [{}];
    const seen = queries.some((q) => (q.package ?? []).some((p) => p.$?.['android:name'] === PLAY_STORE));
    if (!seen) queries[0].package = [...(queries[0].package ?? []), { $: { 'android:name': PLAY_STORE } }];
    manifest.queries = queries;
    return mod;
  });
}

/** `["@lander/sdk", { url, paths?, playReferrer? }]`. */
function withLander(config, props = {}) {
  const { url, paths = ['/open/*'], playReferrer = true } = props ?? {};
  let out = config;
  if (url !== undefined) out = withLinks(out, hostOf(url), paths);
  if (playReferrer) out = withPlayReferrer(out);
  return out;
}

module.exports = configPlugins().createRunOncePlugin(withLander, pkg.name, pkg.version);
