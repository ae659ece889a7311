import { createHmac } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Framework } from '@authlab/servers'
import { describeReply, type Outcome, Steps } from './check.js'
import { createFixedLengthGenerator } from './fixed-length.js'
import type { StoreHarness } from './harness.js'

/** Registers the fixed-length generators on the harness; returns their keys by length. */
export function addLengthGenerators(harness: StoreHarness, lengths: readonly number[]): Map<number, string> {
  const keys = new Map<number, string>()
  for (const length of lengths) {
    const generate = createFixedLengthGenerator(length)
    harness.switch.add(generate.info.name, generate)
    keys.set(length, generate.info.name)
  }
  return keys
}

/** One point of the length chart: an ID of `length` characters must round-trip intact, or fail loudly. */
export function chartLength(harness: StoreHarness, framework: Framework, key: string): Promise<Outcome> {
  return Steps.outcome(async (steps) => {
    const created = await steps.run('create', async () => {
      const reply = await harness.request(framework, key)
      const storeErrors = harness.storeErrorsOf(key)
      const because = storeErrors.length > 0 ? ` (${storeErrors.join('; ')})` : ''
      steps.expect(reply.status === 200, `${describeReply(reply)}${because}`)
      return { id: reply.json?.id as string, cookie: reply.sessionCookie }
    })
    await steps.run('ID in backend', async () => {
      const stored = await harness.main.storedIds()
      steps.expect(stored.includes(created.id), harness.explainMissing(created.id, stored))
    })
    await steps.run('read back', async () => {
      const reply = await harness.request(framework, key, { cookie: created.cookie })
      steps.expect(reply.json?.id === created.id && reply.json?.visits === 2, describeReply(reply))
    })
  })
}

function signWithWrongKey(value: string): string {
  const signature = createHmac('sha256', 'not-the-server-secret-but-as-long-as-one')
    .update(value)
    .digest('base64')
  return encodeURIComponent(`s:${value}.${signature.replace(/=+$/, '')}`)
}

/** Tampered, overlong (64 KB), wrongly signed and `../`-style session cookies: hostile input a store must reject without harm. */
export function hostileCookies(genuine: string): ReadonlyMap<string, string> {
  const [name, value = ''] = genuine.split('=')
  const decoded = decodeURIComponent(value)
  const tampered = decoded.slice(0, 2) + (decoded[2] === 'A' ? 'B' : 'A') + decoded.slice(3)
  return new Map([
    ['tampered', `${name}=${encodeURIComponent(tampered)}`],
    ['overlong (64 KB)', `${name}=s:${'A'.repeat(64 * 1024)}.sig`],
    ['wrongly signed', `${name}=${signWithWrongKey(decoded.slice(2, decoded.lastIndexOf('.')))}`],
    ['../ unsigned', `${name}=s:../outside`],
    ['../ wrongly signed', `${name}=${signWithWrongKey('../outside')}`],
    ['garbage', `${name}=%E0%A4%A;;; =%%; ${name}`],
  ])
}

/** Names and contents of everything beside a file store's directory (its decoy included). */
async function snapshotBeside(directory: string): Promise<string> {
  const parent = dirname(directory)
  const names = (await readdir(parent)).filter((entry) => entry !== basename(directory)).sort()
  const contents = await Promise.all(
    names.map((entry) => readFile(join(parent, entry), 'utf8').catch(() => '<dir>')),
  )
  return JSON.stringify(names.map((entry, i) => [entry, contents[i]]))
}

/** Each hostile cookie must get a fresh session, never a crash, and leave files outside the store alone. */
export function checkHostile(
  harness: StoreHarness,
  framework: Framework,
  generator: string,
): Promise<Outcome> {
  return Steps.outcome(async (steps) => {
    const directory = harness.main.directory
    const before = directory === undefined ? '' : await snapshotBeside(directory)
    const genuine = await harness.request(framework, generator)
    steps.expect(genuine.sessionCookie !== undefined, `no cookie to tamper with (${describeReply(genuine)})`)
    for (const [label, cookie] of hostileCookies(genuine.sessionCookie as string)) {
      await steps.run(label, async () => {
        const reply = await harness.request(framework, generator, { cookie })
        steps.expect(reply.status === 200, describeReply(reply))
        steps.expect(
          reply.json?.visits === 1 && harness.switch.hasIssued(generator, reply.json?.id),
          'not a fresh session',
        )
      })
    }
    await steps.run('files outside the store', async () => {
      if (directory !== undefined) steps.expect((await snapshotBeside(directory)) === before, 'changed')
    })
  })
}
