import { NEST_EXPRESS_COOKIE, startNestExpressApp } from '../../src/nest-express.js'
import { hmacBase64, sessionMatrix } from '../session-matrix.js'

await sessionMatrix({
  name: 'nest-express',
  start: startNestExpressApp,
  cookie: NEST_EXPRESS_COOKIE,
  stores: true,
  rotates: true,
  // express-session signs `s:<id>.<HMAC-SHA256>` with cookie-signature and URL-encodes the cookie.
  cookieProblems: (browser, id) =>
    decodeURIComponent(browser.cookies.get(NEST_EXPRESS_COOKIE) ?? '') ===
    `s:${id}.${hmacBase64('sha256', id)}`
      ? []
      : [`${NEST_EXPRESS_COOKIE} is not s:<id>.<signature>`],
  tamperCookie: NEST_EXPRESS_COOKIE,
})
