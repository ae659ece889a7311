import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { expect } from 'vitest'

/**
 * A port nothing listens on now, drawn below the kernel's ephemeral range (32768–60999 by default).
 * A port from `listen(0)` is ephemeral: between our probe closing it and the snippet binding it,
 * another test's `listen(0)` server can be handed the same port, and the readiness poll would then be
 * answered by that server. Below the range, only a server that names the port can take it.
 */
function freePort(host = '::', attempts = 50): Promise<number> {
  const candidate = 20_000 + Math.floor(Math.random() * 12_000)
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => {
      // `::` binds IPv4 and IPv6 at once; where IPv6 is off, probe IPv4's loopback instead.
      if (error.code === 'EAFNOSUPPORT' || error.code === 'EADDRNOTAVAIL')
        freePort('127.0.0.1', attempts).then(resolve, reject)
      else if (error.code === 'EADDRINUSE' && attempts > 1) freePort(host, attempts - 1).then(resolve, reject)
      else reject(error)
    })
    probe.listen(candidate, host, () => probe.close(() => resolve(candidate)))
  })
}

export interface RunningSnippet {
  readonly base: string
  /** Stops the server and resolves with everything it wrote to stderr. */
  stop(): Promise<string>
}

/** Runs a server snippet and resolves once it answers HTTP (any status), or rejects with its stderr. */
export async function startServerSnippet(
  node: string,
  cwd: string,
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<RunningSnippet> {
  const port = await freePort()
  const child = spawn(node, [file], { cwd, env: { ...env, PORT: String(port) }, stdio: 'pipe' })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  child.stdout.resume()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill()
    await exited
    return stderr
  }
  // `localhost`: express listens on every address, fastify on localhost's (127.0.0.1 and ::1).
  const base = `http://localhost:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before answering: ${stderr.trim()}`)
    if (Date.now() > deadline) throw new Error(`${await stop()}\nno answer on ${base} within 60 s`)
    const answered = await fetch(base).then(
      () => true,
      () => false,
    )
    if (answered) return { base, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Runs a snippet that is not a server to its end. */
export function runScriptSnippet(node: string, cwd: string, file: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
    const child = spawn(node, [file], { cwd, env, stdio: 'pipe', timeout: 180_000 })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.stdout.resume()
    child.once('exit', (code, signal) => resolve({ code, signal, stderr }))
  })
}

const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0]

/**
 * A session-ID snippet's server: the first request makes a session with an ID of the generator's
 * format and sets its cookie; the second sends the cookie back and is in the same session.
 */
export async function sessionSurvives(base: string, info: { length: number; alphabet: string }) {
  const first = await fetch(`${base}/`)
  expect(first.status).toBe(200)
  const cookie = cookieOf(first)
  expect(cookie, 'the first response sets a session cookie').toBeTruthy()
  const { sessionId, views } = (await first.json()) as { sessionId: string; views: number }
  expect(views).toBe(1)
  expect(sessionId).toHaveLength(info.length)
  expect([...sessionId].every((char) => info.alphabet.includes(char))).toBe(true)
  expect(decodeURIComponent(cookie ?? '')).toContain(sessionId)

  const second = await fetch(`${base}/`, { headers: { cookie: cookie ?? '' } })
  expect(await second.json(), 'the cookie sent back finds the same session').toEqual({ sessionId, views: 2 })
}

/** A login snippet's server: sign-up, a refused and an accepted login, and the session it starts. */
export async function loginSurvives(base: string) {
  const post = (path: string, body: object) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const ada = { user: 'ada', password: 'correct horse battery staple' }
  expect((await post('/signup', ada)).status).toBe(201)
  expect((await post('/signup', { ...ada, password: 'another' })).status, 'a taken name').toBe(409)

  const refused = await post('/login', { ...ada, password: 'Tr0ub4dor&3' })
  expect(refused.status).toBe(401)
  expect(cookieOf(refused)).toBeUndefined()

  const accepted = await post('/login', ada)
  expect(accepted.status).toBe(204)
  const cookie = cookieOf(accepted)
  expect(cookie, 'a login sets a session cookie').toBeTruthy()
  const me = await fetch(`${base}/me`, { headers: { cookie: cookie ?? '' } })
  expect(await me.json(), 'the cookie sent back finds the logged-in session').toEqual({ user: 'ada' })
  expect((await fetch(`${base}/me`)).status).toBe(401)
}
