import { HONO_COOKIE, startHonoApp } from '../../src/hono.js'
import { sessionMatrix } from '../session-matrix.js'

await sessionMatrix({
  name: 'hono',
  start: startHonoApp,
  cookie: HONO_COOKIE,
  stores: true,
  rotates: false,
  // @hono/session encrypts `{ sid, iat, exp }` into a compact JWE (dir + A256GCM): five dot-separated parts.
  cookieProblems: (browser, id) => {
    const jwe = browser.cookies.get(HONO_COOKIE) ?? ''
    if (jwe.split('.').length !== 5) return [`${HONO_COOKIE} is not a compact JWE`]
    return jwe.includes(id) ? [`${HONO_COOKIE} shows the ID`] : []
  },
  tamperCookie: HONO_COOKIE,
  logsRefusedCookie: true,
})
