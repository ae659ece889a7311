import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { clusterPorts, DEFAULT_CLUSTER_PORTS } from '../src/index.js'

const run = promisify(execFile)
const SCRIPT = join(import.meta.dirname, '../scripts/redis-cluster.sh')

test('AUTHLAB_CLUSTER_PORTS: unset is 7101-7106; a range or a list of six ports', () => {
  expect(clusterPorts(undefined)).toEqual([7101, 7102, 7103, 7104, 7105, 7106])
  expect(clusterPorts('')).toBe(DEFAULT_CLUSTER_PORTS)
  expect(clusterPorts('7201-7206')).toEqual([7201, 7202, 7203, 7204, 7205, 7206])
  expect(clusterPorts('7201,7203,7205,7207,7209,7211')).toEqual([7201, 7203, 7205, 7207, 7209, 7211])
})

test.each([
  '7201-7205',
  '7201-7207',
  '7206-7201',
  '7201,7201,7202,7203,7204,7205',
  'abc',
  '7201;7202',
  '60001-60006',
])('AUTHLAB_CLUSTER_PORTS=%s is refused, not guessed at', (setting) => {
  expect(() => clusterPorts(setting)).toThrow(/AUTHLAB_CLUSTER_PORTS/)
})

test('scripts/redis-cluster.sh refuses the same settings (exit 2) before touching any node', async () => {
  for (const setting of ['7201-7205', 'abc', '60001-60006']) {
    const failure = await run('bash', [SCRIPT, 'status'], {
      env: {
        ...process.env,
        AUTHLAB_CLUSTER_PORTS: setting,
        AUTHLAB_CLUSTER_DIR: '/tmp/authlab-cluster-ports-test',
      },
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    )
    expect(failure?.code, setting).toBe(2)
    expect(failure?.stderr, setting).toMatch(/AUTHLAB_CLUSTER_PORTS|expected 1024-55535/)
  }
})
