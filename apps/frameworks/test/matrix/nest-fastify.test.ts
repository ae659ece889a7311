import { NEST_FASTIFY_COOKIE, startNestFastifyApp } from '../../src/nest-fastify.js'
import { hmacBase64, sessionMatrix } from '../session-matrix.js'

await sessionMatrix({
  name: 'nest-fastify',
  start: startNestFastifyApp,
  cookie: NEST_FASTIFY_COOKIE,
  stores: true,
  rotates: true,
  // @fastify/session signs `<id>.<HMAC-SHA256>` with @fastify/cookie's Signer (no prefix by default).
  cookieProblems: (browser, id) =>
    browser.cookies.get(NEST_FASTIFY_COOKIE) === `${id}.${hmacBase64('sha256', id)}`
      ? []
      : [`${NEST_FASTIFY_COOKIE} is not <id>.<signature>`],
  tamperCookie: NEST_FASTIFY_COOKIE,
})
