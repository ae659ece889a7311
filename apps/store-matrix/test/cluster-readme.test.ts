import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
// @ts-expect-error: a plain .mjs script without type declarations (publish-results imports it too)
import { renderClusterBlocks } from '../scripts/cluster-table.mjs'

const ROOT = join(import.meta.dirname, '..')

test("the README's cluster figures are the committed results/cluster/cluster.json, rendered", async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  const results = JSON.parse(await readFile(join(ROOT, 'results/cluster/cluster.json'), 'utf8'))
  // Rendering the committed JSON into the committed README must change nothing: a figure typed by hand,
  // or a JSON published without its README, fails here (fix: npm run publish-results).
  expect(renderClusterBlocks(readme, results)).toBe(readme)
})
