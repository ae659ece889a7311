import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'

/**
 * What the proxy does to traffic:
 * - `pass`: forwards both ways;
 * - `stall`: forwards nothing, but keeps every byte and delivers it on `restore()` (a frozen peer);
 * - `blackhole`: accepts connections and swallows their bytes, never answering and never closing; a
 *   connection black-holed once stays dead after `restore()`, as a half-open TCP connection does when a
 *   peer vanishes without a FIN or RST (RFC 9293 §3.5.1), so only a client-side timeout notices it;
 * - `refused`: open connections are reset and the port stops listening, so new ones get ECONNREFUSED
 *   (the backend process is down);
 * - `dropping`: open connections are reset and every new one is accepted, then closed at once (a backend
 *   still starting up, or a load balancer with no healthy backend behind it).
 *
 * Two narrower faults leave the mode at `pass` for most connections: `stallOpenConnections()` freezes
 * only the connections open now (a connection stuck on a dead path while a fresh one gets through), and
 * `limitNewConnections(n)` black-holes every new connection after the next `n` (a backend that stops
 * answering new clients while the ones it has keep working). `restore()` ends both.
 */
export type FaultMode = 'pass' | 'stall' | 'blackhole' | 'refused' | 'dropping'

interface Pair {
  readonly client: Socket
  readonly upstream: Socket | undefined
  dead: boolean
  stalled: boolean
}

/**
 * A loopback TCP proxy in front of one backend port that can reset, stall, refuse and black-hole the
 * connections going through it. Faults are injected here, never on the shared backend itself, so only the
 * connections of the process under test are hurt.
 */
export class FaultProxy {
  private server: Server
  private readonly pairs = new Set<Pair>()
  private current: FaultMode = 'pass'
  /** New connections still let through before they are black-holed (limitNewConnections). */
  private newConnectionsLeft = Number.POSITIVE_INFINITY

  private constructor(
    private readonly targetPort: number,
    readonly port: number,
    server: Server,
  ) {
    this.server = server
    server.on('connection', (socket) => this.accept(socket))
  }

  /** Listens on an ephemeral 127.0.0.1 port in front of 127.0.0.1:`targetPort`. */
  static async start(targetPort: number): Promise<FaultProxy> {
    const server = createServer()
    const port = await listen(server, 0)
    return new FaultProxy(targetPort, port, server)
  }

  get mode(): FaultMode {
    return this.current
  }

  /** Connections currently open through the proxy (black-holed ones included). */
  get connections(): number {
    return this.pairs.size
  }

  /** Local ports of the proxy's connections to the backend: how the backend sees this proxy's clients. */
  upstreamPorts(): number[] {
    return [...this.pairs].flatMap((pair) =>
      pair.upstream?.localPort === undefined ? [] : [pair.upstream.localPort],
    )
  }

  /** Sends a TCP RST both ways on every open connection; returns how many were reset. */
  reset(): number {
    const count = this.pairs.size
    for (const pair of this.pairs) this.disconnect(pair, true)
    return count
  }

  stall(): void {
    this.current = 'stall'
    for (const pair of this.pairs) pausePair(pair)
  }

  /** Freezes the connections open now as `stall` does; new ones pass. */
  stallOpenConnections(): void {
    for (const pair of this.pairs) pausePair(pair)
  }

  /** Lets the next `count` new connections through and black-holes every one after them; open ones pass. */
  limitNewConnections(count: number): void {
    this.newConnectionsLeft = count
  }

  blackhole(): void {
    this.current = 'blackhole'
    for (const pair of this.pairs) pair.dead = true
  }

  /** Resets every open connection and stops listening until `restore()`. */
  refuse(): void {
    this.current = 'refused'
    this.reset()
    // close() calls back only once accepted sockets have ended; the port itself is released at once.
    this.server.close()
  }

  /** Resets every open connection and closes every new one as soon as it is accepted, until `restore()`. */
  drop(): void {
    this.current = 'dropping'
    this.reset()
  }

  /** Back to `pass`: listens again after a refusal and releases stalled bytes; black-holed connections stay dead. */
  async restore(): Promise<void> {
    if (this.current === 'refused') {
      this.server = createServer()
      this.server.on('connection', (socket) => this.accept(socket))
      await listen(this.server, this.port)
    }
    this.current = 'pass'
    this.newConnectionsLeft = Number.POSITIVE_INFINITY
    for (const pair of this.pairs) if (!pair.dead) resumePair(pair)
  }

  async close(): Promise<void> {
    this.reset()
    await new Promise<void>((resolve) =>
      this.server.listening ? this.server.close(() => resolve()) : resolve(),
    )
  }

  private accept(client: Socket): void {
    client.on('error', () => {})
    if (this.current === 'dropping') {
      client.destroy()
      return
    }
    if (this.current === 'blackhole' || this.newConnectionsLeft-- <= 0) {
      const pair: Pair = { client, upstream: undefined, dead: true, stalled: false }
      this.track(pair)
      client.on('data', () => {})
      return
    }
    const upstream = tcpConnect({ host: '127.0.0.1', port: this.targetPort })
    upstream.setNoDelay(true)
    client.setNoDelay(true)
    upstream.on('error', () => {})
    const pair: Pair = { client, upstream, dead: false, stalled: false }
    this.track(pair)
    forward(pair, client, upstream)
    forward(pair, upstream, client)
    if (this.current === 'stall') pausePair(pair)
  }

  private track(pair: Pair): void {
    this.pairs.add(pair)
    const forget = () => this.disconnect(pair, false)
    pair.client.once('close', forget)
    pair.upstream?.once('close', forget)
  }

  private disconnect(pair: Pair, reset: boolean): void {
    if (!this.pairs.delete(pair)) return
    for (const socket of [pair.client, pair.upstream]) {
      if (socket === undefined || socket.destroyed) continue
      if (reset) socket.resetAndDestroy()
      else socket.destroy()
    }
  }
}

/** Copies `from` → `to` unless the pair is black-holed, honouring back-pressure. */
function forward(pair: Pair, from: Socket, to: Socket): void {
  from.on('data', (chunk: Buffer) => {
    if (pair.dead) return
    if (!to.write(chunk)) {
      from.pause()
      to.once('drain', () => {
        if (!pair.dead && !pair.stalled) from.resume()
      })
    }
  })
  // A FIN is passed on as a FIN, so a clean close stays clean on both sides.
  from.on('end', () => {
    if (!pair.dead) to.end()
  })
}

function pausePair(pair: Pair): void {
  pair.stalled = true
  pair.client.pause()
  pair.upstream?.pause()
}

function resumePair(pair: Pair): void {
  pair.stalled = false
  pair.client.resume()
  pair.upstream?.resume()
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as { port: number }).port)
    })
  })
}
