/**
 * A client that keeps cookies as a browser does for one site (RFC 6265bis §5.7: a cookie set with an
 * expiry in the past, or `Max-Age=0`, is removed), follows no redirects (Auth.js answers its sign-in
 * steps with them, and the test reads their `Location`), and sends every cookie it holds.
 */
export class Browser {
  readonly cookies = new Map<string, string>()

  constructor(readonly base: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  /** A copy holding the same cookies now: a second device, or an attacker replaying a stolen cookie. */
  clone(): Browser {
    const copy = new Browser(this.base)
    for (const [name, value] of this.cookies) copy.cookies.set(name, value)
    return copy
  }

  async request(
    path: string,
    init: {
      method?: string
      json?: unknown
      form?: Record<string, string>
      headers?: Record<string, string>
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...init.headers }
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader
    let body: string | undefined
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(init.json)
    } else if (init.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(init.form).toString()
    }
    const url = path.startsWith('http') ? path : `${this.base}${path}`
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' })
    this.#remember(response)
    return response
  }

  async json<T = Record<string, unknown>>(
    path: string,
    init?: Parameters<Browser['request']>[1],
  ): Promise<{ status: number; body: T }> {
    const response = await this.request(path, init)
    const text = await response.text()
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T }
  }

  #remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=')
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now()
        return false
      })
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
}
