// Runs one entry module inside Node, Bun or Deno and prints its result as one marked JSON line, so
// the parent can tell the result apart from anything the entry itself prints.
const deno = /** @type {any} */ (globalThis).Deno
const [entry, input] = deno ? deno.args : process.argv.slice(2)
const run = (await import(entry)).default
const result = await run(JSON.parse(input ?? '{}'))
console.log(`__AUTHLAB_RESULT__${JSON.stringify(result)}`)
