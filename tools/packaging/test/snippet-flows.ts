import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { expect } from 'vitest'
import { REPO_ROOT, readManifest } from '../src/workspace.mjs'

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
  /** Everything it has written to stdout so far. */
  stdout(): string
}

/**
 * Runs a server snippet and resolves once it answers HTTP (any status), or rejects with its stderr.
 * `args` go before the file (`run --allow-all` for Deno).
 */
export async function startServerSnippet(
  node: string,
  cwd: string,
  file: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[] = [],
): Promise<RunningSnippet> {
  const port = await freePort()
  const child = spawn(node, [...args, file], { cwd, env: { ...env, PORT: String(port) }, stdio: 'pipe' })
  let stderr = ''
  let stdout = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
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
    if (answered) return { base, stop, stdout: () => stdout }
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

/** Every cookie the responses set, last value per name, as the Cookie header a browser sends back. */
function cookiesOf(...responses: Response[]): string {
  const jar = new Map<string, string>()
  for (const response of responses)
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? ''
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
    }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
}

function expectIdOf(info: { length: number; alphabet: string }, id: string) {
  expect(id).toHaveLength(info.length)
  expect([...id].every((char) => info.alphabet.includes(char))).toBe(true)
}

/**
 * A session-ID snippet whose framework sets more than one cookie (koa-session's signature) or seals the
 * ID into its cookie (h3, @hono/session): every cookie goes back, as from a browser; `sealed` says the
 * ID must not be readable in them, otherwise it must be there.
 */
export async function sessionSurvivesWithCookies(
  base: string,
  info: { length: number; alphabet: string },
  { sealed }: { sealed: boolean },
) {
  const first = await fetch(`${base}/`)
  expect(first.status).toBe(200)
  const cookie = cookiesOf(first)
  expect(cookie, 'the first response sets a session cookie').toBeTruthy()
  const { sessionId, views } = (await first.json()) as { sessionId: string; views: number }
  expect(views).toBe(1)
  expectIdOf(info, sessionId)
  expect(
    decodeURIComponent(cookie).includes(sessionId),
    sealed ? 'the cookie seals the ID' : 'the cookie holds the ID',
  ).toBe(!sealed)
  const second = await fetch(`${base}/`, { headers: { cookie } })
  expect(await second.json(), 'the cookies sent back find the same session').toEqual({ sessionId, views: 2 })
}

/**
 * An Auth.js snippet with an email provider whose link it prints: the CSRF token, the sign-in form, the
 * link from the snippet's stdout, then the database session it starts, whose token is the cookie.
 */
export async function magicLinkSignIn(
  base: string,
  info: { length: number; alphabet: string },
  stdout: () => string,
) {
  const email = 'ada@example.org'
  const csrf = await fetch(`${base}/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const form = await fetch(`${base}/auth/signin/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiesOf(csrf) },
    body: new URLSearchParams({ email, csrfToken }),
    redirect: 'manual',
  })
  expect(form.status).toBe(302)
  let link: string | undefined
  for (let wait = 0; wait < 50 && link === undefined; wait++) {
    link = /https?:\/\/\S+\/auth\/callback\/email\?\S+/.exec(stdout())?.[0]
    if (link === undefined) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(link, 'the sign-in link is printed').toBeDefined()
  const callback = await fetch(link ?? '', { headers: { cookie: cookiesOf(csrf, form) }, redirect: 'manual' })
  expect(callback.status).toBe(302)
  const token = /(?:^|; )authjs\.session-token=([^;]*)/.exec(cookiesOf(callback))?.[1] ?? ''
  expectIdOf(info, decodeURIComponent(token))
  const me = await fetch(`${base}/`, { headers: { cookie: cookiesOf(csrf, form, callback) } })
  expect(await me.json(), 'the token cookie finds the database session').toEqual({ user: email })
  expect(await (await fetch(`${base}/`)).json()).toEqual({ user: null })
}

/** better-auth's email sign-up and sign-in (`/api/auth/…`), and the session `GET /me` reads from the cookie. */
export async function betterAuthSignIn(base: string) {
  const post = (path: string, body: object) =>
    fetch(`${base}/api/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const ada = { email: 'ada@example.org', password: 'correct horse battery staple' }
  expect((await post('sign-up/email', { ...ada, name: 'Ada' })).status).toBe(200)
  expect((await post('sign-in/email', { ...ada, password: 'Tr0ub4dor&3' })).status).toBe(401)
  const signedIn = await post('sign-in/email', ada)
  expect(signedIn.status).toBe(200)
  const me = await fetch(`${base}/me`, { headers: { cookie: cookiesOf(signedIn) } })
  expect(await me.json(), 'the session cookie finds the signed-in user').toEqual({ user: ada.email })
  expect((await fetch(`${base}/me`)).status).toBe(401)
}

/** The format of the IDs a session-ID package's README snippet must put in its cookies. */
async function idFormat(readme: string): Promise<{ length: number; alphabet: string }> {
  const { name } = readManifest(join(REPO_ROOT, dirname(readme)))
  const { generateId } = (await import(name)) as {
    generateId: { info: { length: number; alphabet: string } }
  }
  return generateId.info
}

/** Drives a running server snippet of `readme` through the flow its kind names (snippet-runs.mjs `FLOWS`). */
export async function driveServerSnippet(
  kind: string,
  server: RunningSnippet,
  readme: string,
): Promise<void> {
  if (kind === 'login') return loginSurvives(server.base)
  if (kind === 'better-auth') return betterAuthSignIn(server.base)
  const info = await idFormat(readme)
  if (kind === 'session-cookies') return sessionSurvivesWithCookies(server.base, info, { sealed: false })
  if (kind === 'sealed-session') return sessionSurvivesWithCookies(server.base, info, { sealed: true })
  if (kind === 'magic-link') return magicLinkSignIn(server.base, info, server.stdout)
  return sessionSurvives(server.base, info)
}
