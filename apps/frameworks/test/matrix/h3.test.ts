import { H3_COOKIE, startH3App } from '../../src/h3.js'
import { sessionMatrix } from '../session-matrix.js'

await sessionMatrix({
  name: 'h3',
  start: startH3App,
  cookie: H3_COOKIE,
  stores: false,
  rotates: false,
  // h3 seals the session, ID included, with iron (`Fe26.2*…`): the ID must not be readable in it.
  cookieProblems: (browser, id) => {
    const sealed = browser.cookies.get(H3_COOKIE) ?? ''
    if (!sealed.startsWith('Fe26.2*')) return [`${H3_COOKIE} is not an iron seal`]
    return sealed.includes(id) ? [`${H3_COOKIE} shows the ID`] : []
  },
  tamperCookie: H3_COOKIE,
})
