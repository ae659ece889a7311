import { Agent } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { send } from '../src/client.js'

/**
 * A raw HTTP server that answers the first request on every connection with keep-alive and closes the
 * connection without answering any later request on it: what a client sees when the server's idle
 * timeout closes a kept-alive socket just as the client reuses it.
 */
async function closesReusedSockets(): Promise<{ url: string; server: Server; connections: () => number }> {
  let connections = 0
  const server = createServer((socket: Socket) => {
    connections += 1
    let requests = 0
    socket.on('data', (chunk) => {
      if (!chunk.includes('\r\n\r\n')) return
      requests += 1
      if (requests > 1) return void socket.destroy()
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, server, connections: () => connections }
}

describe('send on a kept-alive socket the server closed', () => {
  let server: Server | undefined
  let agent: Agent
  beforeEach(() => {
    agent = new Agent({ keepAlive: true, maxSockets: 1 })
  })
  afterEach(async () => {
    agent.destroy()
    await new Promise((resolve) => server?.close(resolve))
  })

  it('sends a GET once more on a new socket and gets its answer', async () => {
    const target = await closesReusedSockets()
    server = target.server
    expect((await send(target.url, { agent })).text).toBe('ok')
    expect((await send(target.url, { agent })).text).toBe('ok')
    expect(target.connections()).toBe(2)
  })

  it('does not send a POST again: the server may have acted on it', async () => {
    const target = await closesReusedSockets()
    server = target.server
    await send(target.url, { agent })
    await expect(send(target.url, { method: 'POST', body: {}, agent })).rejects.toMatchObject({
      code: 'ECONNRESET',
    })
    expect(target.connections()).toBe(1)
  })
})
