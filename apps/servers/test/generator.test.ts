import { describe, expect, test } from 'vitest'
import { FRAMEWORKS, type Framework } from '../src/index.js'
import { recordingOptions } from './fixtures.js'

const withInfo = (generate: () => unknown, length: number, alphabet: string) =>
  Object.assign(generate, { info: { length, alphabet } })

// An empty or constant ID puts every visitor in one session: alice's cookie would read bob's.
const BAD: [string, (request?: unknown) => string][] = [
  ['an empty ID', () => ''],
  ['a constant ID', () => 'the-same-session-id-for-everyone'],
  ['a number', (() => 42) as unknown as () => string],
  [
    'an ID shorter than declared',
    withInfo(() => crypto.randomUUID().slice(0, 30), 36, '0123456789abcdef-') as () => string,
  ],
  [
    'an ID outside its alphabet',
    withInfo(() => `${crypto.randomUUID().slice(0, 35)}/`, 36, '0123456789abcdef-') as () => string,
  ],
]

describe.each(['fastify', 'express'] as Framework[])(
  '%s refuses a generator before its first request',
  (framework) => {
    test.each(BAD)('%s', async (_name, generateId) => {
      const { options } = await recordingOptions()
      await expect(FRAMEWORKS[framework]({ ...options, generateId })).rejects.toMatchObject({
        code: 'ERR_AUTHLAB_INVALID_OPTION',
      })
    })
  },
)
