import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { captureEnvironment } from '@authlab/workspace'
import packageJson from '../package.json' with { type: 'json' }

const ROOT = resolve(import.meta.dirname, '../../..')
const LAST_RUN = join(import.meta.dirname, '../.last-run')

/** The machine, versions, commit and load average, taken when a column starts (the load it ran under). */
export function environmentNow() {
  return captureEnvironment(ROOT, [], 'full', packageJson.dependencies)
}

/**
 * Writes one store's column to the git-ignored .last-run/<column>/<store>.json; `npm run publish-results`
 * copies it into the committed results/.
 */
export async function recordColumn(
  column: 'faults' | 'races',
  store: string,
  environment: ReturnType<typeof environmentNow>,
  reports: readonly unknown[],
): Promise<void> {
  const folder = join(LAST_RUN, column)
  await mkdir(folder, { recursive: true })
  const results = { format: `authlab-store-${column}/1`, environment, reports }
  await writeFile(join(folder, `${store}.json`), `${JSON.stringify(results, null, 2)}\n`)
}
