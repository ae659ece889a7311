import { createServer } from 'node:http'
import { build } from 'esbuild'
import puppeteer from 'puppeteer-core'

// Chromium's background services try to reach Google at start; on a closed network that is a burst
// of refused connections and slow starts, so they are switched off. --expose-gc gives pages gc().
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--js-flags=--expose-gc',
]

/**
 * Starts the installed browser headless through puppeteer-core (no browser download), with the flags
 * above for Chromium. Other code that drives a page (e.g. a test of an HTML report) starts it here too.
 * @param {{ browser: 'chrome' | 'firefox', executable: string }} runtime
 * @param {{ timeoutMs: number }} options
 */
export function launchBrowser(runtime, { timeoutMs }) {
  return puppeteer.launch({
    browser: runtime.browser,
    executablePath: runtime.executable,
    headless: true,
    args: runtime.browser === 'chrome' ? CHROMIUM_ARGS : [],
    protocolTimeout: timeoutMs,
  })
}

/**
 * Bundles `entry` for the browser (esbuild, one ES module, nothing fetched from a CDN), serves it on
 * 127.0.0.1 and calls its default export in a headless page driven by puppeteer-core over the
 * installed browser (CDP for Chromium, WebDriver BiDi for Firefox: no browser download).
 * @param {{ id: string, browser: 'chrome' | 'firefox', executable: string }} runtime
 * @param {string} entry
 * @param {unknown} input
 * @param {{ timeoutMs: number }} options
 */
export async function runInBrowser(runtime, entry, input, { timeoutMs }) {
  const bundle = await build({
    stdin: {
      contents: `import run from ${JSON.stringify(entry)}; globalThis.__authlabRun = run`,
      resolveDir: process.cwd(),
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    // A module that needs Node's built-ins fails the build; the caller names it in a note, so esbuild's
    // own report would only repeat it on the terminal.
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]?.text ?? ''
  const server = createServer((req, res) => {
    if (req.url === '/bundle.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' })
      return res.end(script)
    }
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><meta charset="utf-8"><script type="module" src="/bundle.js"></script>')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  const browser = await launchBrowser(runtime, { timeoutMs })
  try {
    const page = await browser.newPage()
    page.setDefaultTimeout(timeoutMs)
    await page.goto(`http://127.0.0.1:${address.port}/`)
    await page.waitForFunction(() => typeof (/** @type {any} */ (globalThis).__authlabRun) === 'function')
    return await page.evaluate(
      (arg) => /** @type {any} */ (globalThis).__authlabRun(arg),
      /** @type {any} */ (input),
    )
  } finally {
    await browser.close()
    server.close()
  }
}
