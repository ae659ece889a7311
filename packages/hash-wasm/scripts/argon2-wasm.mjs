#!/usr/bin/env node
// Writes wasm/argon2.wasm: Argon2's compression function G (RFC 9106 §3.5-3.6) as one WebAssembly
// function, emitted opcode by opcode from this file, with no compiler: the binary is small, readable
// here, and rebuilt byte for byte by the package's test. The rest of argon2id (H0, H', the reference
// indexing of §3.4, the final tag) is TypeScript in src/argon2.ts.
//
// fillBlock(prev, ref, next, withXor, scratch), all byte offsets into the imported memory:
//   R = B[prev] XOR B[ref]; Z = P applied to R's rows, then to its columns;
//   B[next] = Z XOR R            (first pass)
//   B[next] = Z XOR R XOR B[next] (later passes, Argon2 version 0x13)
// `scratch` is 2 KiB of working space: R at scratch, the saved R (XOR the old B[next]) at scratch+1024.
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** WebAssembly opcodes used (WebAssembly Core Specification 2.0, §5.4). */
const OP = {
  end: 0x0b,
  if: 0x04,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i64Load: 0x29,
  i64Store: 0x37,
  i64Const: 0x42,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
  i64Add: 0x7c,
  i64Mul: 0x7e,
  i64Xor: 0x85,
  i64Shl: 0x86,
  i64Rotr: 0x8a,
}
const I64 = 0x7e
const I32 = 0x7f

/** Unsigned LEB128 (§5.2.2). */
function uleb(value) {
  const out = []
  let v = value
  do {
    let byte = v & 0x7f
    v >>>= 7
    if (v !== 0) byte |= 0x80
    out.push(byte)
  } while (v !== 0)
  return out
}

/** Signed LEB128 for the small non-negative constants used here (shift counts). */
const sleb = (value) => {
  if (value < 0 || value > 63) throw new Error(`sleb: ${value} is outside the constants this file emits`)
  return [value]
}

const name = (text) => [...uleb(text.length), ...new TextEncoder().encode(text)]
const vector = (items) => [...uleb(items.length), ...items.flat()]
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes]

// Parameters 0-4, then the sixteen 64-bit words P works on, then one spare word.
const PREV = 0
const REF = 1
const NEXT = 2
const WITH_XOR = 3
const SCRATCH = 4
const V = (i) => 5 + i
const TMP = 21

const get = (local) => [OP.localGet, ...uleb(local)]
const set = (local) => [OP.localSet, ...uleb(local)]
// 8-byte aligned (alignment exponent 3) at a constant offset from the address on the stack.
const load = (base, offset) => [...get(base), OP.i64Load, 3, ...uleb(offset)]
const store = (base, offset, value) => [...get(base), ...value, OP.i64Store, 3, ...uleb(offset)]

/** x = x + y + 2·lo32(x)·lo32(y): BlaMka's multiplication-hardened addition (RFC 9106 §3.6). */
const blaMka = (x, y) => [
  ...get(x),
  ...get(y),
  OP.i64Add,
  ...get(x),
  OP.i32WrapI64,
  OP.i64ExtendI32U,
  ...get(y),
  OP.i32WrapI64,
  OP.i64ExtendI32U,
  OP.i64Mul,
  OP.i64Const,
  ...sleb(1),
  OP.i64Shl,
  OP.i64Add,
  ...set(x),
]

/** x = (x XOR y) >>> n, rotation of a 64-bit word. */
const xorRotr = (x, y, n) => [...get(x), ...get(y), OP.i64Xor, OP.i64Const, ...sleb(n), OP.i64Rotr, ...set(x)]

/** GB(a, b, c, d), RFC 9106 §3.6. */
const gb = (a, b, c, d) => [
  ...blaMka(V(a), V(b)),
  ...xorRotr(V(d), V(a), 32),
  ...blaMka(V(c), V(d)),
  ...xorRotr(V(b), V(c), 24),
  ...blaMka(V(a), V(b)),
  ...xorRotr(V(d), V(a), 16),
  ...blaMka(V(c), V(d)),
  ...xorRotr(V(b), V(c), 63),
]

/** P on v0..v15 (§3.6): four GB on the columns of the 4×4 word matrix, then four on its diagonals. */
const permutation = () => [
  ...gb(0, 4, 8, 12),
  ...gb(1, 5, 9, 13),
  ...gb(2, 6, 10, 14),
  ...gb(3, 7, 11, 15),
  ...gb(0, 5, 10, 15),
  ...gb(1, 6, 11, 12),
  ...gb(2, 7, 8, 13),
  ...gb(3, 4, 9, 14),
]

/** P over the sixteen words of R at these byte offsets from scratch: load, permute, store back. */
const permuteAt = (offsets) => [
  ...offsets.flatMap((offset, i) => [...load(SCRATCH, offset), ...set(V(i))]),
  ...permutation(),
  ...offsets.flatMap((offset, i) => store(SCRATCH, offset, get(V(i)))),
]

const WORDS = Array.from({ length: 128 }, (_, i) => i)
const SAVED = 1024

function fillBlockBody() {
  return [
    // R = B[prev] XOR B[ref], kept twice: at scratch (to be permuted) and at scratch+1024.
    ...WORDS.flatMap((w) => [
      ...store(SCRATCH, 8 * w, [...load(PREV, 8 * w), ...load(REF, 8 * w), OP.i64Xor, OP.localTee, TMP]),
      ...store(SCRATCH, SAVED + 8 * w, get(TMP)),
    ]),
    // Later passes XOR the block they overwrite into the result (version 0x13, RFC 9106 §3.2 step 6).
    ...get(WITH_XOR),
    OP.if,
    0x40,
    ...WORDS.flatMap((w) =>
      store(SCRATCH, SAVED + 8 * w, [...load(SCRATCH, SAVED + 8 * w), ...load(NEXT, 8 * w), OP.i64Xor]),
    ),
    OP.end,
    // The 1024-byte block as an 8×8 matrix of 16-byte registers: P on each row (registers 8i..8i+7,
    // words 16i..16i+15), then on each column (registers j, j+8, ..., j+56: words 2j+16k and 2j+16k+1).
    ...Array.from({ length: 8 }, (_, row) =>
      permuteAt(Array.from({ length: 16 }, (_, j) => 128 * row + 8 * j)),
    ),
    ...Array.from({ length: 8 }, (_, col) =>
      permuteAt(Array.from({ length: 16 }, (_, j) => 16 * col + 128 * (j >> 1) + 8 * (j & 1))),
    ),
    ...WORDS.flatMap((w) =>
      store(NEXT, 8 * w, [...load(SCRATCH, SAVED + 8 * w), ...load(SCRATCH, 8 * w), OP.i64Xor]),
    ),
    OP.end,
  ].flat()
}

/** The module's bytes (§5.5): one type, the imported memory, one exported function. */
export function argon2Wasm() {
  const type = [0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), ...vector([])]
  // (import "env" "memory" (memory 1)): the caller creates it and grows it to the blocks it needs.
  const memoryImport = [...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]
  const locals = vector([[...uleb(17), I64]])
  const body = [...locals, ...fillBlockBody()]
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([type])),
    ...section(2, vector([memoryImport])),
    ...section(3, vector([uleb(0)])),
    ...section(7, vector([[...name('fillBlock'), 0x00, ...uleb(0)]])),
    ...section(10, vector([[...uleb(body.length), ...body]])),
  ])
}

export const WASM_FILE = fileURLToPath(new URL('../wasm/argon2.wasm', import.meta.url))

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(fileURLToPath(new URL('../wasm/', import.meta.url)), { recursive: true })
  writeFileSync(WASM_FILE, argon2Wasm())
  console.log(`wrote ${WASM_FILE} (${argon2Wasm().length} bytes)`)
}
