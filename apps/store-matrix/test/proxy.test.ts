import { connect, createServer, type Server, type Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { FaultProxy } from '../src/fault/proxy.js'

/** An echo server standing in for a backend: answers every chunk with the same bytes. */
let echo: Server
let echoPort: number
let proxy: FaultProxy

beforeEach(async () => {
  echo = createServer((socket) => {
    socket.on('error', () => {})
    socket.pipe(socket)
  })
  echoPort = await new Promise<number>((resolve) =>
    echo.listen(0, '127.0.0.1', () => resolve((echo.address() as { port: number }).port)),
  )
  proxy = await FaultProxy.start(echoPort)
})

afterEach(async () => {
  await proxy.close()
  await new Promise((resolve) => echo.close(resolve))
})

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** A connection that the proxy has accepted too (the client's connect can come first). */
async function openThrough(): Promise<Socket> {
  const before = proxy.connections
  const socket = await open()
  while (proxy.connections === before) await new Promise((resolve) => setTimeout(resolve, 5))
  return socket
}

/** What the socket receives within `ms`: for checking that nothing comes through. */
function receive(socket: Socket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk.toString()
    }
    socket.on('data', onData)
    setTimeout(() => {
      socket.off('data', onData)
      resolve(text)
    }, ms)
  })
}

/** Resolves once `expected` has arrived, however long that takes (the test's timeout bounds it). */
function arrives(socket: Socket, expected: string): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes(expected)) {
        socket.off('data', onData)
        resolve(text)
      }
    }
    socket.on('data', onData)
  })
}

function closed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let code = 'closed'
    socket.once('error', (error: NodeJS.ErrnoException) => {
      code = error.code ?? 'error'
    })
    socket.once('close', () => resolve(code))
  })
}

describe('FaultProxy', () => {
  test('passes bytes both ways', async () => {
    const socket = await open()
    socket.write('ping')
    expect(await arrives(socket, 'ping')).toBe('ping')
    socket.destroy()
  })

  test('reset: every open connection gets a TCP RST', async () => {
    const socket = await openThrough()
    const ended = closed(socket)
    expect(proxy.reset()).toBe(1)
    expect(await ended).toBe('ECONNRESET')
  })

  test('stall: nothing passes, then the held bytes arrive on restore', async () => {
    const socket = await open()
    proxy.stall()
    socket.write('held')
    expect(await receive(socket, 100)).toBe('')
    await proxy.restore()
    expect(await arrives(socket, 'held')).toBe('held')
    socket.destroy()
  })

  test('refuse: open connections are reset and new ones refused until restore', async () => {
    const socket = await openThrough()
    const ended = closed(socket)
    proxy.refuse()
    expect(await ended).toBe('ECONNRESET')
    await expect(open()).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    await proxy.restore()
    const again = await open()
    again.write('back')
    expect(await arrives(again, 'back')).toBe('back')
    again.destroy()
  })

  test('drop: new connections are accepted and closed at once', async () => {
    proxy.drop()
    const socket = await open()
    expect(await closed(socket)).toBe('closed')
  })

  test('blackhole: bytes vanish and nothing closes, even after restore; new connections work again', async () => {
    const socket = await open()
    proxy.blackhole()
    socket.write('lost')
    expect(await receive(socket, 100)).toBe('')
    await proxy.restore()
    socket.write('still lost')
    expect(await receive(socket, 100)).toBe('')
    expect(socket.destroyed).toBe(false)
    const fresh = await open()
    fresh.write('fresh')
    expect(await arrives(fresh, 'fresh')).toBe('fresh')
    socket.destroy()
    fresh.destroy()
  })

  test('upstreamPorts names the local ports the backend sees', async () => {
    const seen = new Promise<number>((resolve) => echo.once('connection', (s) => resolve(s.remotePort ?? 0)))
    const socket = await open()
    const port = await seen
    expect(proxy.upstreamPorts()).toEqual([port])
    socket.destroy()
  })
})

describe('FaultProxy: faults on some connections only', () => {
  test('stallOpenConnections: the open connection is held until restore, a new one passes', async () => {
    const held = await openThrough()
    proxy.stallOpenConnections()
    held.write('held')
    const fresh = await open()
    fresh.write('fresh')
    expect(await arrives(fresh, 'fresh')).toBe('fresh')
    expect(await receive(held, 100)).toBe('')
    await proxy.restore()
    expect(await arrives(held, 'held')).toBe('held')
    held.destroy()
    fresh.destroy()
  })

  test('limitNewConnections: the next n pass, later ones are black-holed, open ones keep working', async () => {
    const before = await openThrough()
    proxy.limitNewConnections(1)
    const first = await openThrough()
    const second = await openThrough()
    for (const [socket, text] of [
      [before, 'before'],
      [first, 'first'],
    ] as const) {
      socket.write(text)
      expect(await arrives(socket, text)).toBe(text)
    }
    second.write('second')
    expect(await receive(second, 100)).toBe('')
    await proxy.restore()
    const after = await open()
    after.write('after')
    expect(await arrives(after, 'after')).toBe('after')
    for (const socket of [before, first, second, after]) socket.destroy()
  })
})
