// Shared by this folder's `--candidate` modules for the bench app: @authlab/id-fast built with one
// technique forced, renamed so that its row stands beside the package's own (which uses the technique
// chosen for the runtime). The package froze `info` onto its function, so the new name goes on a
// forwarding function, which the JIT inlines. Measure them all in one run:
//
//   npm run bench -- --suite ids --filter 'authlab fast' --candidate packages/id-fast/bench/json-batch.mjs \
//     --candidate packages/id-fast/bench/latin1-slice.mjs --candidate packages/id-fast/bench/unrolled.mjs \
//     --candidate packages/id-fast/bench/loop.mjs
import { createIdGenerator } from '@authlab/id-fast'

export function techniqueCandidate(technique) {
  return (options) => {
    const built = createIdGenerator({ ...options, technique })
    const generate = (request) => built(request)
    Object.defineProperty(generate, 'info', {
      value: Object.freeze({
        ...built.info,
        name: `id-fast:${technique}`,
        displayName: `${built.info.displayName}, ${technique}`,
      }),
    })
    return generate
  }
}
