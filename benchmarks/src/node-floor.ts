/**
 * Why this Node cannot run the bench, in one line, or undefined. The bench's dependencies state their
 * floor (undici 8: Node >= 22.19) and fail deep inside themselves below it, so the floor in
 * benchmarks/package.json `engines.node` is checked before anything else is imported.
 */
export function nodeProblem(version: string, engines: string): string | undefined {
  const floor = /^>=\s*(\d+)\.(\d+)/.exec(engines)
  const [major = 0, minor = 0] = version.split('.').map(Number)
  if (!floor) return undefined
  const [want, wantMinor] = [Number(floor[1]), Number(floor[2])]
  if (major > want || (major === want && minor >= wantMinor)) return undefined
  return `authlab-bench needs Node >= ${want}.${wantMinor} (npm run bench runs it on the workspace's own Node); this is Node ${version}`
}
