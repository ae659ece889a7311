import type { Agent } from 'node:http'
import { type ClientResponse, send } from '@authlab/servers'
import { mapLimit, sleep } from '../concurrency.js'

/** What one session has been told so far: its ID and the visit count last acknowledged with a 2xx. */
interface TrackedSession {
  readonly cookie: string
  readonly id: string
  acknowledgedVisits: number
  lost: boolean
}

export interface LoadCounts {
  readonly requests: number
  readonly ok: number
  readonly serverErrors: number
  /** No answer: refused, reset or timed out on the client side. */
  readonly noAnswer: number
  /** Sessions whose creation was acknowledged with a 2xx and a cookie. */
  readonly acknowledged: number
  /** Of those, sessions that later came back as a different or older session. */
  readonly lost: number
}

/**
 * Steady load on one server: each client creates a session (`GET /` without a cookie) and updates it
 * (`GET /` with the cookie, which counts a visit) a few times, then starts over. Every 2xx is a
 * promise: the session exists and holds at least the acknowledged visits. A later read that shows a
 * different ID or fewer visits breaks that promise, and the session counts as lost.
 */
export class SessionLoad {
  private readonly sessions: TrackedSession[] = []
  private running = false
  private inFlight = 0
  private paused: { promise: Promise<void>; resume: () => void } | undefined
  private readonly clients: Promise<void>[] = []
  private requests = 0
  private ok = 0
  private serverErrors = 0
  private noAnswer = 0
  /** Times of 2xx answers to requests sent at or after a given moment, for recovery times. */
  private readonly successes: { sentAt: number; answeredAt: number }[] = []
  /** Send and answer times of every request that got a 5xx or no answer. */
  private readonly failures: { sentAt: number; answeredAt: number }[] = []
  private nextUrl = 0
  private readonly urls: readonly string[]
  /** When each lost session was found lost during the load (read-back losses are not in it). */
  readonly lostAt: number[] = []
  /** How the first few lost sessions read back: a new ID, or fewer visits than acknowledged. */
  readonly lossSamples: string[] = []

  /**
   * `url`: one server, or several sharing a store, taken in turn for every request (a client-side
   * round-robin): a session is created on one and read and updated on the others.
   */
  constructor(
    url: string | readonly string[],
    private readonly agent: Agent,
    private readonly options: { clients: number; updatesPerSession: number; timeoutMs: number },
  ) {
    this.urls = typeof url === 'string' ? [url] : url
  }

  start(): void {
    this.running = true
    for (let i = 0; i < this.options.clients; i++) this.clients.push(this.client())
  }

  async stop(): Promise<void> {
    this.running = false
    this.resume()
    await Promise.all(this.clients)
  }

  /** Holds every client before its next request and resolves once no request is in flight. */
  async pause(): Promise<void> {
    if (this.paused === undefined) {
      let resume = () => {}
      const promise = new Promise<void>((resolve) => {
        resume = resolve
      })
      this.paused = { promise, resume }
    }
    while (this.inFlight > 0) await sleep(5)
  }

  resume(): void {
    this.paused?.resume()
    this.paused = undefined
  }

  /** Milliseconds from `since` to the first 2xx answer of a request sent at or after it; undefined if none yet. */
  recoveredAfter(since: number): number | undefined {
    const first = this.successes.find((s) => s.sentAt >= since)
    return first === undefined ? undefined : first.answeredAt - since
  }

  /** Requests sent in [from, to) that got a 5xx or no answer, and when the last of them was sent. */
  failuresBetween(from: number, to: number): { count: number; lastSentAt: number | undefined } {
    const failed = this.failures.filter((f) => f.sentAt >= from && f.sentAt < to)
    // Kept in the order they were answered; the latest sent is the one that matters.
    const lastSentAt = failed.length > 0 ? Math.max(...failed.map((f) => f.sentAt)) : undefined
    return { count: failed.length, lastSentAt }
  }

  /** Latency in ms of the 2xx answers to requests sent in [from, to), sorted. */
  latenciesBetween(from: number, to: number): number[] {
    return this.successes
      .filter((s) => s.sentAt >= from && s.sentAt < to)
      .map((s) => s.answeredAt - s.sentAt)
      .sort((a, b) => a - b)
  }

  /** Reads every acknowledged session back once, then returns the counts. */
  async verify(): Promise<LoadCounts> {
    await mapLimit(this.sessions, this.options.clients, async (session) => {
      if (session.lost) return
      const reply = await this.request(session.cookie)
      // Verification runs once the backend is back: a session that cannot be read now is lost.
      if (reply?.status === 200) this.check(session, reply)
      else this.markLost(session, `read-back answered ${reply?.status ?? 'nothing'}`)
    })
    return {
      requests: this.requests,
      ok: this.ok,
      serverErrors: this.serverErrors,
      noAnswer: this.noAnswer,
      acknowledged: this.sessions.length,
      lost: this.sessions.filter((s) => s.lost).length,
    }
  }

  private async client(): Promise<void> {
    while (this.running) {
      const created = await this.request(undefined)
      const cookie = created?.sessionCookie
      if (created?.status !== 200 || cookie === undefined || typeof created.json?.id !== 'string') continue
      const session: TrackedSession = { cookie, id: created.json.id, acknowledgedVisits: 1, lost: false }
      this.sessions.push(session)
      for (
        let update = 0;
        update < this.options.updatesPerSession && this.running && !session.lost;
        update++
      ) {
        const reply = await this.request(cookie)
        if (reply?.status === 200) this.check(session, reply)
      }
    }
  }

  /** A 2xx read of `session`: the same ID with at least one visit more than acknowledged, or it was lost. */
  private check(session: TrackedSession, reply: ClientResponse): void {
    const visits = reply.json?.visits
    if (reply.status !== 200) return
    if (reply.json?.id !== session.id || typeof visits !== 'number' || visits <= session.acknowledgedVisits) {
      this.markLost(
        session,
        reply.json?.id !== session.id
          ? `new ID after ${session.acknowledgedVisits} acknowledged visits`
          : `${String(visits)} visits read after ${session.acknowledgedVisits} acknowledged`,
      )
      return
    }
    session.acknowledgedVisits = visits
  }

  /** Marks `session` lost, when (under load only) and how (the first few). */
  private markLost(session: TrackedSession, how: string): void {
    session.lost = true
    if (this.running) this.lostAt.push(Date.now())
    if (this.lossSamples.length < 5) this.lossSamples.push(how)
  }

  private async request(cookie: string | undefined): Promise<ClientResponse | undefined> {
    while (this.paused !== undefined) await this.paused.promise
    const sentAt = Date.now()
    this.requests++
    this.inFlight++
    try {
      const url = this.urls[this.nextUrl++ % this.urls.length] as string
      const reply = await send(url, { cookie, agent: this.agent, timeoutMs: this.options.timeoutMs })
      if (reply.status >= 500) {
        this.serverErrors++
        this.failures.push({ sentAt, answeredAt: Date.now() })
      } else if (reply.status >= 200 && reply.status < 300) {
        this.ok++
        this.successes.push({ sentAt, answeredAt: Date.now() })
      }
      return reply
    } catch {
      this.noAnswer++
      this.failures.push({ sentAt, answeredAt: Date.now() })
      return undefined
    } finally {
      this.inFlight--
    }
  }
}
