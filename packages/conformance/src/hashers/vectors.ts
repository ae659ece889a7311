/**
 * Known-answer vectors from the primary sources, exported so every package implementing an algorithm
 * checks the same answers. Each vector names its source; none was produced by authlab code.
 */

/** An encoded hash that a correct implementation verifies for `password` (and for no other password). */
export interface EncodedVector {
  readonly password: string
  readonly encoded: string
  readonly source: string
}

/** A raw KDF answer: `derive(password, salt, length)` with `params` gives `hex`. */
export interface KdfVector {
  readonly password: string
  readonly salt: string
  readonly params: Readonly<Record<string, number>>
  readonly length: number
  readonly hex: string
  readonly source: string
}

const RFC7914_S12 = 'RFC 7914 §12 (scrypt test vectors)'
const RFC7914_S11 = 'RFC 7914 §11 (PBKDF2-HMAC-SHA256 test vectors)'

/**
 * RFC 7914 §12. The fourth vector (N = 2^20, 1 GiB, seconds per run) is left out on purpose: it
 * tests nothing the other three do not, and would dominate the suite's run time.
 */
export const SCRYPT_KDF_VECTORS: readonly KdfVector[] = [
  {
    password: '',
    salt: '',
    params: { ln: 4, r: 1, p: 1 },
    length: 64,
    hex: '77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906',
    source: `${RFC7914_S12} #1`,
  },
  {
    password: 'password',
    salt: 'NaCl',
    params: { ln: 10, r: 8, p: 16 },
    length: 64,
    hex: 'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640',
    source: `${RFC7914_S12} #2`,
  },
  {
    password: 'pleaseletmein',
    salt: 'SodiumChloride',
    params: { ln: 14, r: 8, p: 1 },
    length: 64,
    hex: '7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887',
    source: `${RFC7914_S12} #3`,
  },
]

export const SCRYPT_VECTORS: readonly EncodedVector[] = [
  {
    password: 'password',
    encoded: '$scrypt$ln=16,r=8,p=1$aM15713r3Xsvxbi31lqr1Q$nFNh2CVHVjNldFVKDHDlm4CbdRSCdEBsjjJxD+iCs5E',
    source: 'passlib 1.7 documentation, passlib.hash.scrypt example',
  },
  {
    // The §12 #3 answer written as a PHC string: salt "SodiumChloride", 64-byte hash.
    password: 'pleaseletmein',
    encoded:
      '$scrypt$ln=14,r=8,p=1$U29kaXVtQ2hsb3JpZGU$cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofLVQylVYT8Pz2LUlwUkKpr55h6F3A1lHkDfzwF7RVdYhw',
    source: `${RFC7914_S12} #3, PHC-encoded`,
  },
]

export const PBKDF2_SHA256_KDF_VECTORS: readonly KdfVector[] = [
  {
    password: 'passwd',
    salt: 'salt',
    params: { iterations: 1 },
    length: 64,
    hex: '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783',
    source: `${RFC7914_S11} #1`,
  },
  {
    password: 'Password',
    salt: 'NaCl',
    params: { iterations: 80000 },
    length: 64,
    hex: '4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d',
    source: `${RFC7914_S11} #2`,
  },
]

export const PBKDF2_SHA256_VECTORS: readonly EncodedVector[] = [
  {
    password: 'password',
    encoded: '$pbkdf2-sha256$6400$0ZrzXitFSGltTQnBWOsdAw$Y11AchqV4b0sUisdZd0Xr97KWoymNE0LNNrnEgY4H9M',
    source: 'passlib 1.7 documentation, passlib.hash.pbkdf2_sha256 example (modular crypt form, ab64)',
  },
  {
    password: 'password',
    encoded: '$pbkdf2-sha256$i=6400$0ZrzXitFSGltTQnBWOsdAw$Y11AchqV4b0sUisdZd0Xr97KWoymNE0LNNrnEgY4H9M',
    source: 'the same passlib example in the PHC form authlab writes',
  },
]

/** P-H-C/phc-winner-argon2 src/test.c, Argon2id v=0x13 section ("password" / "somesalt"). */
export const ARGON2ID_VECTORS: readonly EncodedVector[] = [
  {
    password: 'password',
    encoded: '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
    source: 'phc-winner-argon2 src/test.c: argon2id t=2 m=2^16 p=1',
  },
  {
    password: 'password',
    encoded: '$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4',
    source: 'phc-winner-argon2 src/test.c: argon2id t=2 m=2^8 p=1',
  },
  {
    password: 'password',
    encoded: '$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc',
    source: 'phc-winner-argon2 src/test.c: argon2id t=2 m=2^8 p=2',
  },
]

const OPENWALL =
  'Openwall crypt_blowfish wrapper.c tests, as kelektiv/node.bcrypt.js test/implementation.js uses them'
const OPENBSD = 'OpenBSD regress bcrypt vectors, as kelektiv/node.bcrypt.js test/implementation.js uses them'
const CONSISTENCY = 'kelektiv/node.bcrypt.js test/implementation.js test_consistency'

/**
 * bcrypt `$2a$`/`$2b$` vectors. The empty-password one is kept on purpose: under the default policy a
 * hasher must refuse it with PasswordPolicyError rather than verify it.
 */
export const BCRYPT_VECTORS: readonly EncodedVector[] = [
  {
    password: 'U*U',
    encoded: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW',
    source: OPENWALL,
  },
  {
    password: 'U*U*',
    encoded: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK',
    source: OPENWALL,
  },
  {
    password: 'U*U*U',
    encoded: '$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a',
    source: OPENWALL,
  },
  { password: '', encoded: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy', source: OPENWALL },
  {
    password: '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
    encoded: '$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui',
    source: OPENWALL,
  },
  {
    password: '0'.repeat(72),
    encoded: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.6.O1dLNbjod2uo0DVcW.jHucKbPDdHS',
    source: OPENBSD,
  },
  {
    password: '0'.repeat(72),
    encoded: '$2b$05$CCCCCCCCCCCCCCCCCCCCC.6.O1dLNbjod2uo0DVcW.jHucKbPDdHS',
    source: OPENBSD,
  },
  {
    password: 'ππππππππ',
    encoded: '$2a$10$.TtQJ4Jr6isd4Hp.mVfZeuh6Gws4rOQ/vdBczhDx.19NFK0Y84Dle',
    source: CONSISTENCY,
  },
  {
    password: 'ἓν οἶδα ὅτι οὐδὲν οἶδα',
    encoded: '$2b$12$LeHKWR2bmrazi/6P22JpauX5my/eKwwKpWqL7L5iEByBnxNc76FRW',
    source: CONSISTENCY,
  },
]

/**
 * Mozilla's 2013 onepw "stretch-KDF" chain for email "andré@example.org", password "pässwörd", with each
 * intermediate as published: K1 (first PBKDF2), K2 (scrypt) and stretchedPW (second PBKDF2) in the
 * pbkdf2 tests of mozilla/fxa-auth-server and mozilla/fxa-js-client, stretchedPW also in Firefox for
 * Android's TestPICLClientSideKeyStretcher (citing wiki.mozilla.org/Identity/AttachedServices/
 * KeyServerProtocol#stretch-KDF); the HKDF output from
 * mozilla/fxa packages/fxa-auth-server/lib/crypto/hkdf.spec.ts (info "identity.mozilla.com/picl/v1/mainKDF").
 */
export const ONEPW_VECTOR = Object.freeze({
  email: 'andré@example.org',
  password: 'pässwörd',
  k1: 'f84913e3d8e6d624689d0a3e9678ac8dcc79d2c2f3d9641488cd9d6ef6cd83dd',
  k2: '5b82f146a64126923e4167a0350bb181feba61f63cb1714012b19cb0be0119c5',
  stretchedPW: 'c16d46c31bee242cb31f916e9e38d60b76431d3f5304549cc75ae4bc20c7108c',
  mainSalt: '00f000000000000000000000000000000000000000000000000000000000034d',
  mainKDF:
    '00f9b71800ab5337d51177d8fbc682a3653fa6dae5b87628eeec43a18af59a9d6ea660be9c89ec355397f89afb282ea0bf21095760c8c5009bbcc894155bbe2a',
  source: 'mozilla/fxa-auth-server and mozilla/fxa test vectors (see the JSDoc above)',
})

/** The sets above by export name: an algorithm profile's `vectors` field names its sets here. */
export const VECTOR_SETS: Readonly<Record<string, readonly EncodedVector[] | readonly KdfVector[]>> = {
  SCRYPT_VECTORS,
  SCRYPT_KDF_VECTORS,
  PBKDF2_SHA256_VECTORS,
  PBKDF2_SHA256_KDF_VECTORS,
  ARGON2ID_VECTORS,
  BCRYPT_VECTORS,
}
