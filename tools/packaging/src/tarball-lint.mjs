import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'
import { binPath } from './bin.mjs'

/**
 * `publint --strict` on a packed tarball: every message as one line (strict turns warnings into
 * errors), empty when the package is clean.
 * @param {string} tarball path of the .tgz @param {import('@authlab/workspace').Manifest} manifest
 * @returns {Promise<string[]>}
 */
export async function publintProblems(tarball, manifest) {
  const bytes = readFileSync(tarball)
  const { messages } = await publint({
    strict: true,
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
  })
  return messages.map((message) => formatMessage(message, manifest, { color: false }) ?? message.code)
}

/**
 * are-the-types-wrong with its default (strict) profile: node10, node16 from CJS and from ESM, and
 * bundler resolution of every entry point. Returns attw's report when it finds a problem, else [].
 * `--no-definitely-typed`: our packages ship their own types, and the check stays offline.
 * @param {string} tarball
 * @returns {string[]}
 */
export function attwProblems(tarball) {
  const attw = spawnSync(
    process.execPath,
    [
      binPath('@arethetypeswrong/cli', 'attw'),
      tarball,
      '--no-definitely-typed',
      '--format',
      'ascii',
      '--no-color',
    ],
    { encoding: 'utf8' },
  )
  return attw.status === 0 ? [] : [`attw exited ${attw.status}:\n${attw.stdout}${attw.stderr}`]
}
