/**
 * The part of Node's `Buffer` this package uses, typed here rather than through @types/node so that the
 * package's types do not assume Node: it is read from `globalThis` only where `describeRuntime` found it.
 * `latin1Slice` is the method behind `buf.toString('latin1', start, end)`, on the prototype in Node and
 * implemented by Bun for compatibility (oven-sh/bun src/bun.js/bindings/JSBuffer.cpp).
 */
export interface NodeBufferView extends Uint8Array<ArrayBuffer> {
  toString(): string
  toString(encoding: 'base64url'): string
  write(text: string, offset: number, encoding: 'latin1'): number
  latin1Slice(start: number, end: number): string
}

interface NodeBufferClass {
  alloc(size: number): NodeBufferView
  from(buffer: ArrayBuffer, byteOffset: number, length: number): NodeBufferView
}

/** The runtime's `Buffer`; call only where `describeRuntime().nodeBuffer` is true. */
export function nodeBuffer(): NodeBufferClass {
  return (globalThis as unknown as { Buffer: NodeBufferClass }).Buffer
}
