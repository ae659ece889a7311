import { KOA_COOKIE, startKoaApp } from '../../src/koa.js'
import { hmacBase64, sessionMatrix } from '../session-matrix.js'

/** Keygrip's signature (keygrip `index.js`): HMAC-SHA1 of `name=value`, base64 made URL-safe, no padding. */
const keygrip = (text: string) => hmacBase64('sha1', text).replace(/\//g, '_').replace(/\+/g, '-')

await sessionMatrix({
  name: 'koa',
  start: startKoaApp,
  cookie: KOA_COOKIE,
  stores: true,
  rotates: true,
  // koa-session puts the external key in the cookie as it is (the `cookies` module refuses a value
  // outside RFC 6265's cookie-octets with a TypeError) and signs it in `koa.sess.sig`.
  cookieProblems: (browser, id) => {
    const problems: string[] = []
    if (browser.cookies.get(KOA_COOKIE) !== id) problems.push(`${KOA_COOKIE} is not the ID`)
    if (browser.cookies.get(`${KOA_COOKIE}.sig`) !== keygrip(`${KOA_COOKIE}=${id}`))
      problems.push(`${KOA_COOKIE}.sig is not Keygrip's signature of the ID`)
    return problems
  },
  tamperCookie: `${KOA_COOKIE}.sig`,
})
