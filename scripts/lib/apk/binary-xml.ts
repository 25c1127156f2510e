/**
 * Android's binary XML (AXML), as aapt and aapt2 compile AndroidManifest.xml: a chunk `RES_XML_TYPE`
 * holding a string pool (UTF-8 or UTF-16), a resource map (the attribute names' resource ids) and the
 * tree's nodes, each a chunk (docs/apk-stamping.md, "Reading the manifest"). Only what a manifest's
 * root element needs is read: its name and its attributes with their typed values. Every offset is
 * checked against its chunk, so a truncated or forged file gets an {@link XmlError}, never a crash.
 */

const RES_STRING_POOL_TYPE = 0x0001;
const RES_XML_TYPE = 0x0003;
const RES_XML_START_ELEMENT_TYPE = 0x0102;
const RES_XML_RESOURCE_MAP_TYPE = 0x0180;
/** Bit of the string pool's flags: strings are UTF-8 (else UTF-16LE). */
const UTF8_FLAG = 0x100;
/** `Res_value` types a manifest's attributes are read with. */
export const TYPE_REFERENCE = 0x01;
export const TYPE_STRING = 0x03;
/** No string: the index AXML writes for an absent namespace or raw value. */
export const NO_INDEX = 0xffffffff;

/** Why the bytes are not binary XML that can be read. */
export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

/** One attribute of an element: names resolved, its typed value as written (`Res_value`). */
export interface XmlAttribute {
  /** The namespace URI, or null. */
  namespace: string | null;
  name: string;
  /** The attribute name's resource id from the resource map (e.g. 0x0101021c), or null. */
  resourceId: number | null;
  /** The value as text in the source, when the compiler kept it, else null. */
  raw: string | null;
  /** `Res_value.dataType`: 0x01 reference, 0x03 string, 0x10 decimal integer, … */
  type: number;
  /** `Res_value.data`: the string's index for a string, the resource id for a reference. */
  data: number;
  /** The string `data` names when `type` is a string, else null. */
  text: string | null;
}

/** The first element of a document. */
export interface XmlElement {
  namespace: string | null;
  name: string;
  attributes: XmlAttribute[];
}

/** The document's root element (its first start-element node), with its attributes. */
export function readRootElement(bytes: Uint8Array): XmlElement {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = chunkAt(view, 0, view.byteLength, 'the document');
  if (header.type !== RES_XML_TYPE) {
    throw new XmlError(`not binary XML: the first chunk is of type 0x${header.type.toString(16)}, not 0x0003`);
  }
  let strings: string[] | null = null;
  let resourceIds: number[] = [];
  for (let at = header.start + header.headerSize; at < header.end; ) {
    const chunk = chunkAt(view, at, header.end, `the chunk at ${at}`);
    if (chunk.type === RES_STRING_POOL_TYPE) strings = readStringPool(view, chunk);
    else if (chunk.type === RES_XML_RESOURCE_MAP_TYPE) resourceIds = readResourceMap(view, chunk);
    else if (chunk.type === RES_XML_START_ELEMENT_TYPE) {
      if (!strings) throw new XmlError('an element comes before the string pool');
      return readElement(view, chunk, strings, resourceIds);
    }
    at = chunk.end;
  }
  throw new XmlError(strings ? 'the document has no element' : 'the document has no string pool');
}

interface Chunk {
  type: number;
  headerSize: number;
  start: number;
  end: number;
}

/** The chunk header at `at` (u16 type, u16 header size, u32 size), which must fit before `limit`. */
function chunkAt(view: DataView, at: number, limit: number, what: string): Chunk {
  if (at + 8 > limit) throw new XmlError(`${what} is cut off: its header needs 8 bytes`);
  const type = view.getUint16(at, true);
  const headerSize = view.getUint16(at + 2, true);
  const size = view.getUint32(at + 4, true);
  if (headerSize < 8 || size < headerSize || at + size > limit) {
    throw new XmlError(`${what} does not fit: header ${headerSize} bytes, size ${size}, ${limit - at} bytes left`);
  }
  return { type, headerSize, start: at, end: at + size };
}

/** A checked reader inside one chunk. */
function within(view: DataView, chunk: Chunk, what: string) {
  const check = (offset: number, length: number) => {
    if (offset < chunk.start || offset + length > chunk.end) {
      throw new XmlError(`${what} points outside its chunk (offset ${offset})`);
    }
    return offset;
  };
  return {
    check,
    u8: (offset: number) => view.getUint8(check(offset, 1)),
    u16: (offset: number) => view.getUint16(check(offset, 2), true),
    u32: (offset: number) => view.getUint32(check(offset, 4), true),
  };
}

/** Every string of a pool, decoded (`ResStringPool_header`, then offsets, then the strings). */
function readStringPool(view: DataView, chunk: Chunk): string[] {
  const read = within(view, chunk, 'the string pool');
  if (chunk.headerSize < 28) throw new XmlError('the string pool’s header is shorter than 28 bytes');
  const count = read.u32(chunk.start + 8);
  const utf8 = (read.u32(chunk.start + 16) & UTF8_FLAG) !== 0;
  const stringsStart = chunk.start + read.u32(chunk.start + 20);
  const offsets = chunk.start + chunk.headerSize;
  if (count > (chunk.end - offsets) / 4) throw new XmlError(`the string pool cannot hold ${count} strings`);
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const strings: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = stringsStart + read.u32(offsets + i * 4);
    strings.push(utf8 ? utf8String(read, bytes, at) : utf16String(read, bytes, at));
  }
  return strings;
}

type Reader = ReturnType<typeof within>;

/** UTF-8: its length in UTF-16 units, then in bytes (each one or two bytes), the bytes, a 0. */
function utf8String(read: Reader, bytes: Uint8Array, at: number): string {
  const skip = read.u8(at) & 0x80 ? 2 : 1;
  let cursor = at + skip;
  let length = read.u8(cursor);
  if (length & 0x80) length = ((length & 0x7f) << 8) | read.u8(cursor + 1);
  cursor += read.u8(cursor) & 0x80 ? 2 : 1;
  read.check(cursor, length);
  return new TextDecoder('utf-8').decode(bytes.subarray(cursor, cursor + length));
}

/** UTF-16LE: its length in units (one u16, or two when the high bit is set), the units, a 0. */
function utf16String(read: Reader, bytes: Uint8Array, at: number): string {
  let length = read.u16(at);
  let cursor = at + 2;
  if (length & 0x8000) {
    length = ((length & 0x7fff) << 16) | read.u16(cursor);
    cursor += 2;
  }
  read.check(cursor, length * 2);
  return new TextDecoder('utf-16le').decode(bytes.subarray(cursor, cursor + length * 2));
}

/** The resource ids of the first strings (the attribute names), in pool order. */
function readResourceMap(view: DataView, chunk: Chunk): number[] {
  const read = within(view, chunk, 'the resource map');
  const ids: number[] = [];
  for (let at = chunk.start + chunk.headerSize; at + 4 <= chunk.end; at += 4) ids.push(read.u32(at));
  return ids;
}

/** A start-element node: `ResXMLTree_attrExt` after the node header, then its attributes. */
function readElement(view: DataView, chunk: Chunk, strings: string[], resourceIds: number[]): XmlElement {
  const read = within(view, chunk, 'the element');
  const string = (index: number, what: string): string | null => {
    if (index === NO_INDEX) return null;
    const value = strings[index];
    if (value === undefined) throw new XmlError(`${what} names string ${index}; the pool has ${strings.length}`);
    return value;
  };
  const ext = chunk.start + chunk.headerSize;
  const name = string(read.u32(ext + 4), 'the element’s name');
  if (name === null) throw new XmlError('the element has no name');
  const attributeStart = read.u16(ext + 8);
  const attributeSize = read.u16(ext + 10);
  const count = read.u16(ext + 12);
  if (count > 0 && attributeSize < 20) throw new XmlError(`attributes of ${attributeSize} bytes are too short`);
  const attributes: XmlAttribute[] = [];
  for (let i = 0; i < count; i++) {
    const at = ext + attributeStart + i * attributeSize;
    read.check(at, 20);
    const nameIndex = read.u32(at + 4);
    const attributeName = string(nameIndex, `attribute ${i}`);
    if (attributeName === null) throw new XmlError(`attribute ${i} has no name`);
    const type = read.u8(at + 15);
    const data = read.u32(at + 16);
    attributes.push({
      namespace: string(read.u32(at), `attribute ${attributeName}’s namespace`),
      name: attributeName,
      resourceId: resourceIds[nameIndex] ?? null,
      raw: string(read.u32(at + 8), `attribute ${attributeName}’s raw value`),
      type,
      data,
      text: type === TYPE_STRING ? string(data, `attribute ${attributeName}’s value`) : null,
    });
  }
  return { namespace: string(read.u32(ext), 'the element’s namespace'), name, attributes };
}
