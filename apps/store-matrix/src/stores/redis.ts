import { RedisStore } from 'connect-redis'
import { createClient } from 'redis'
import { REDIS } from '../services.js'
import type { StoreBackend } from './backend.js'

/** connect-redis 9 over node-redis 5: one string key `<prefix><session ID>` per session, with a TTL. */
export const redisStore: StoreBackend = {
  name: 'redis',
  label: 'connect-redis 9 + Redis',
  service: REDIS,
  async open(scope) {
    const client = createClient({ url: `redis://127.0.0.1:${REDIS.port}` })
    await client.connect()
    const prefix = `authlab:${scope}:`
    const keys = () => client.keys(`${prefix}*`)
    return {
      store: new RedisStore({ client, prefix }),
      storedIds: async () => (await keys()).map((key) => key.slice(prefix.length)),
      close: async () => {
        const left = await keys()
        if (left.length > 0) await client.del(left)
        await client.close()
      },
    }
  },
}
