// argon2id (RFC 9106, version 0x13) over a precompiled WebAssembly module: the compression function G
// runs in WebAssembly (wasm/argon2.wasm, written by scripts/argon2-wasm.mjs), everything around it
// here, step by step as §3.2-3.4 give it. It exists for runtimes that refuse to compile WebAssembly
// from bytes at run time (Cloudflare Workers, workerd: "Wasm code generation disallowed by embedder")
// and deliver `.wasm` files as ready `WebAssembly.Module`s instead; hash-wasm, which compiles its own
// embedded bytes, cannot run there.
import { blake2b } from '@noble/hashes/blake2.js'

const BLOCK = 1024
const VERSION = 0x13
const ARGON2ID = 2
/** Slices per pass (the synchronisation points of §3.4). */
const SLICES = 4
/** Pseudo-random values per address block: 128 words of 64 bits. */
const ADDRESSES = BLOCK / 8

// Byte offsets in the module's memory: G's 2 KiB of scratch, then the fixed blocks data-independent
// addressing needs, then the m' blocks of the lanes.
const SCRATCH = 0
const ZERO = 2 * BLOCK
const INPUT = 3 * BLOCK
const ADDRESS_TMP = 4 * BLOCK
const ADDRESS = 5 * BLOCK
const LANES = 6 * BLOCK
const PAGE = 65536

export interface Argon2Input {
  password: Uint8Array
  salt: Uint8Array
  /** Memory in KiB, ≥ 8·p. */
  m: number
  t: number
  p: number
  tagLength: number
  /** The optional secret K and associated data X of §3.2 (RFC 9106 §5.3's vector uses both). */
  secret?: Uint8Array
  ad?: Uint8Array
}

export type Argon2id = (input: Argon2Input) => Uint8Array

/**
 * The part of the WebAssembly JavaScript API used here, typed locally: TypeScript declares it only in
 * its DOM and web worker libs, and @types/node does not.
 */
interface WasmApi {
  Module: abstract new (...args: never[]) => object
  CompileError: abstract new (...args: never[]) => Error
  Memory: new (descriptor: {
    initial: number
  }) => { readonly buffer: ArrayBuffer; grow(pages: number): number }
  instantiate(module: object, imports: object): Promise<{ exports: Record<string, unknown> }>
}
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly

type FillBlock = (prev: number, ref: number, next: number, withXor: number, scratch: number) => void

const le32 = (n: number) => Uint8Array.of(n, n >>> 8, n >>> 16, n >>> 24)

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** H'^T(X), the variable-length hash of §3.3, over BLAKE2b (H^T is BLAKE2b with a T-byte digest). */
function hPrime(length: number, input: Uint8Array): Uint8Array {
  const x = concat(le32(length), input)
  if (length <= 64) return blake2b(x, { dkLen: length })
  const out = new Uint8Array(length)
  const r = Math.ceil(length / 32) - 2
  let v = blake2b(x, { dkLen: 64 })
  out.set(v.subarray(0, 32), 0)
  for (let i = 1; i < r; i++) {
    v = blake2b(v, { dkLen: 64 })
    out.set(v.subarray(0, 32), 32 * i)
  }
  out.set(blake2b(v, { dkLen: length - 32 * r }), 32 * r)
  return out
}

/** H0 of §3.2 step 1: every input and parameter, length-prefixed, under BLAKE2b-512. */
function h0({ password, salt, m, t, p, tagLength, secret, ad }: Argon2Input): Uint8Array {
  const key = secret ?? new Uint8Array(0)
  const data = ad ?? new Uint8Array(0)
  return blake2b(
    concat(
      ...[p, tagLength, m, t, VERSION, ARGON2ID].map(le32),
      le32(password.length),
      password,
      le32(salt.length),
      salt,
      le32(key.length),
      key,
      le32(data.length),
      data,
    ),
    { dkLen: 64 },
  )
}

/** ⌊a·b / 2^32⌋ for a, b < 2^32, exact in doubles: the products of 16-bit halves stay below 2^53. */
function mulHigh32(a: number, b: number): number {
  const aLow = a & 0xffff
  const aHigh = a >>> 16
  const bLow = b & 0xffff
  const bHigh = b >>> 16
  const cross = aHigh * bLow + ((aLow * bLow) >>> 16) + aLow * bHigh
  return aHigh * bHigh + Math.floor(cross / 0x10000)
}

/**
 * Instantiates `module` (wasm/argon2.wasm) and returns argon2id. Each instance keeps its memory, grown
 * to the largest m it has hashed: WebAssembly memory cannot shrink.
 */
export async function argon2idFromModule(module: object): Promise<Argon2id> {
  const memory = new wasmApi.Memory({ initial: 1 })
  const instance = await wasmApi.instantiate(module, { env: { memory } })
  const fillBlock = instance.exports.fillBlock as FillBlock
  return (input) => {
    const lanes = input.p
    // §3.2 step 2: m' = 4·p·⌊m / 4p⌋ blocks, q = m'/p per lane, a segment a quarter of a lane.
    const laneLength = 4 * Math.floor(input.m / (4 * lanes))
    const blocks = laneLength * lanes
    const need = LANES + blocks * BLOCK
    if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE))
    const bytes = new Uint8Array(memory.buffer)
    const words = new Uint32Array(memory.buffer)
    const at = (lane: number, index: number) => LANES + (lane * laneLength + index) * BLOCK
    const start = h0(input)
    bytes.fill(0, ZERO, ZERO + BLOCK)
    // §3.2 steps 3-4: the first two blocks of every lane from H0.
    for (let lane = 0; lane < lanes; lane++) {
      bytes.set(hPrime(BLOCK, concat(start, le32(0), le32(lane))), at(lane, 0))
      bytes.set(hPrime(BLOCK, concat(start, le32(1), le32(lane))), at(lane, 1))
    }
    const run = { fillBlock, words, at, lanes, laneLength, passes: input.t, blocks }
    for (let pass = 0; pass < input.t; pass++)
      for (let slice = 0; slice < SLICES; slice++)
        for (let lane = 0; lane < lanes; lane++) fillSegment(run, pass, slice, lane)
    // §3.2 steps 6-7: C is the XOR of every lane's last block; the tag is H'^T(C).
    const last = bytes.slice(at(0, laneLength - 1), at(0, laneLength - 1) + BLOCK)
    for (let lane = 1; lane < lanes; lane++) {
      const block = at(lane, laneLength - 1)
      for (let i = 0; i < BLOCK; i++) last[i] = (last[i] as number) ^ (bytes[block + i] as number)
    }
    const tag = hPrime(input.tagLength, last)
    bytes.fill(0, LANES, need) // the blocks derive from the password: none outlives the call
    return tag
  }
}

interface Run {
  fillBlock: FillBlock
  words: Uint32Array
  at: (lane: number, index: number) => number
  lanes: number
  laneLength: number
  passes: number
  blocks: number
}

/** One segment (§3.4): the blocks of one lane in one slice of one pass. */
function fillSegment(run: Run, pass: number, slice: number, lane: number): void {
  const { fillBlock, words, at, lanes, laneLength } = run
  const segment = laneLength / SLICES
  // argon2id takes its reference indices from G-generated addresses in the first half of the first
  // pass (data-independent, as Argon2i) and from the previous block afterwards (as Argon2d).
  const independent = pass === 0 && slice < 2
  if (independent) {
    // The input block Z of §3.4.1.2: pass, lane, slice, m', t, type, and a counter in word 6.
    words.fill(0, INPUT / 4, (INPUT + BLOCK) / 4)
    for (const [i, value] of [pass, lane, slice, run.blocks, run.passes, ARGON2ID].entries())
      words[INPUT / 4 + 2 * i] = value
  }
  const nextAddresses = () => {
    words[INPUT / 4 + 12] = (words[INPUT / 4 + 12] as number) + 1
    fillBlock(ZERO, INPUT, ADDRESS_TMP, 0, SCRATCH)
    fillBlock(ZERO, ADDRESS_TMP, ADDRESS, 0, SCRATCH)
  }
  // The first two blocks of every lane came from H0.
  const first = pass === 0 && slice === 0 ? 2 : 0
  if (independent && first !== 0) nextAddresses()
  for (let i = first; i < segment; i++) {
    const index = slice * segment + i
    const prev = at(lane, index === 0 ? laneLength - 1 : index - 1)
    let j1: number
    let j2: number
    if (independent) {
      if (i % ADDRESSES === 0) nextAddresses()
      j1 = words[(ADDRESS + 8 * (i % ADDRESSES)) / 4] as number
      j2 = words[(ADDRESS + 8 * (i % ADDRESSES)) / 4 + 1] as number
    } else {
      j1 = words[prev / 4] as number
      j2 = words[prev / 4 + 1] as number
    }
    // §3.4.1.1: the reference lane (the current one throughout the first slice of the first pass).
    const refLane = pass === 0 && slice === 0 ? lane : j2 % lanes
    const ref = at(refLane, referenceIndex(pass, slice, i, segment, laneLength, refLane === lane, j1))
    fillBlock(prev, ref, at(lane, index), pass === 0 ? 0 : 1, SCRATCH)
  }
}

/** §3.4.2: the reference block's index in its lane, from J1 over the blocks it may reference. */
function referenceIndex(
  pass: number,
  slice: number,
  i: number,
  segment: number,
  laneLength: number,
  sameLane: boolean,
  j1: number,
): number {
  // W: every block finished in the reference lane, less the one just before the current block (the
  // previous block of this lane, or in another lane the one that current segment's start may overwrite).
  const finished = pass === 0 ? slice * segment : laneLength - segment
  const area = sameLane ? finished + i - 1 : finished - (i === 0 ? 1 : 0)
  const x = mulHigh32(j1, j1)
  const zz = area - 1 - mulHigh32(area, x)
  const startAt = pass === 0 || slice === SLICES - 1 ? 0 : (slice + 1) * segment
  return (startAt + zz) % laneLength
}
