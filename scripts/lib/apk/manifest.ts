/**
 * The package and version an APK names in its AndroidManifest.xml (docs/apk-stamping.md, "Reading
 * the manifest"): the root `<manifest>` element's `package` and `android:versionName`, read from the
 * compiled binary XML. Node only: `npm run apk:upload` reads them so the operator need not type them.
 */
import { readRootElement, TYPE_REFERENCE, TYPE_STRING, type XmlAttribute, XmlError } from './binary-xml.ts';
import type { ApkLayout } from './signing-block.ts';
import { readZipEntry } from './zip-entry.ts';

const MANIFEST = 'AndroidManifest.xml';
const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
/** `android:versionName`'s resource id in the framework (android.R.attr.versionName). */
const VERSION_NAME_ID = 0x0101021c;

/** What `android:versionName` holds: text, nothing, a resource reference (`@string/…`) or another type. */
export type VersionName =
  | { kind: 'text'; value: string }
  | { kind: 'missing' }
  | { kind: 'reference'; id: number }
  | { kind: 'other'; type: number };

/** What the manifest says about the app. */
export interface ManifestFacts {
  package: string;
  versionName: VersionName;
}

export type ManifestErrorCode = 'no-manifest' | 'bad-manifest' | 'no-package';

/** Why an APK's manifest does not say which app it is; `code` for programs, the message for people. */
export class ManifestError extends Error {
  readonly code: ManifestErrorCode;
  constructor(code: ManifestErrorCode, message: string) {
    super(message);
    this.name = 'ManifestError';
    this.code = code;
  }
}

/** The manifest's facts, from the APK's bytes and the layout `readApk` found. */
export function readManifest(
  bytes: Uint8Array,
  layout: Pick<ApkLayout, 'centralDirectoryOffset' | 'centralDirectorySize'>,
): ManifestFacts {
  const xml = readZipEntry(bytes, layout, MANIFEST);
  if (!xml) throw new ManifestError('no-manifest', `the APK has no ${MANIFEST}`);
  return manifestFacts(xml);
}

/** The facts in a compiled AndroidManifest.xml. */
export function manifestFacts(xml: Uint8Array): ManifestFacts {
  let root: ReturnType<typeof readRootElement>;
  try {
    root = readRootElement(xml);
  } catch (error) {
    // A DataView read past the end is a RangeError: forged sizes the checks did not foresee.
    if (error instanceof XmlError || error instanceof RangeError) {
      throw new ManifestError('bad-manifest', `${MANIFEST} cannot be read: ${error.message}`);
    }
    throw error;
  }
  if (root.namespace !== null || root.name !== 'manifest') {
    throw new ManifestError('bad-manifest', `${MANIFEST}'s root element is <${root.name}>, not <manifest>`);
  }
  const pkg = root.attributes.find((a) => a.namespace === null && a.name === 'package');
  const name = pkg?.text ?? pkg?.raw;
  if (!name) throw new ManifestError('no-package', `${MANIFEST} has no package attribute`);
  const version = root.attributes.find(isVersionName);
  return { package: name, versionName: version ? versionNameOf(version) : { kind: 'missing' } };
}

/** By its resource id, as Android reads it; by name where the compiler wrote no resource map. */
function isVersionName(attribute: XmlAttribute): boolean {
  if (attribute.resourceId !== null) return attribute.resourceId === VERSION_NAME_ID;
  return attribute.namespace === ANDROID_NS && attribute.name === 'versionName';
}

function versionNameOf(attribute: XmlAttribute): VersionName {
  if (attribute.type === TYPE_STRING && attribute.text !== null) return { kind: 'text', value: attribute.text };
  if (attribute.type === TYPE_REFERENCE) return { kind: 'reference', id: attribute.data };
  if (attribute.raw !== null) return { kind: 'text', value: attribute.raw };
  return { kind: 'other', type: attribute.type };
}
