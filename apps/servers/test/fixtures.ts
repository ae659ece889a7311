import { createHasher } from '@authlab/hash-bcryptjs'
import { createIdGenerator } from '@authlab/id-random-bytes'
import { createUserDirectory, type SessionServerOptions } from '../src/index.js'

export const SECRET = 'test-secret-at-least-32-characters-long'
export const ALICE = { username: 'alice', password: 'correct horse battery staple' }

/** Server options whose generator records every ID it issues, so tests can compare cookie and store. */
export async function recordingOptions(): Promise<{ options: SessionServerOptions; issued: string[] }> {
  const generate = createIdGenerator()
  const issued: string[] = []
  // Cost 4 (bcrypt's minimum) keeps the route tests fast; hashing cost is the benchmarks' business.
  const users = await createUserDirectory(createHasher({ cost: 4 }), { [ALICE.username]: ALICE.password })
  const generateId = () => {
    const id = generate()
    issued.push(id)
    return id
  }
  return { options: { generateId, users, secret: SECRET }, issued }
}
