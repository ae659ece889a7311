import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { createClient } from 'redis'
import { faultDirectory } from '../fault/location.cjs'
import { REDIS_CLUSTER_PORTS } from '../services.js'

const run = promisify(execFile)
/** The script that starts, checks and stops the local cluster (also what `.ci/run` calls). */
export const CLUSTER_SCRIPT = (() => {
  // From src/ under Vitest and from dist/ once built, the package root is the nearest package.json.
  let directory = faultDirectory
  while (!existsSync(join(directory, 'package.json'))) directory = dirname(directory)
  return join(directory, 'scripts/redis-cluster.sh')
})()

/** Starts the cluster if it is not up and healthy; rejects with the script's output if it will not form. */
export async function ensureCluster(): Promise<void> {
  try {
    await run('bash', [CLUSTER_SCRIPT, 'start'], { timeout: 120_000 })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(
      `the Redis Cluster did not start (${CLUSTER_SCRIPT} start): ${stderr || stdout || String(error)}`,
    )
  }
}

/** One node as `CLUSTER NODES` describes it. */
export interface ClusterNode {
  readonly id: string
  readonly port: number
  readonly role: 'master' | 'replica'
  /** The master's ID, for a replica. */
  readonly masterId?: string
  /** Marked failing (`fail` or `fail?`) by the node asked. */
  readonly failing: boolean
  readonly slotCount: number
}

const NODE_CONNECT_TIMEOUT_MS = 5000

function createNode(port: number) {
  return createClient({
    url: `redis://127.0.0.1:${port}`,
    // Loopback connects in well under a millisecond, but a test worker on a loaded 2-core machine (load
    // average 10 while both Vitest workers and other builds ran) has seen 1 s pass before the handshake.
    socket: { connectTimeout: NODE_CONNECT_TIMEOUT_MS, reconnectStrategy: false },
  })
}

/** Runs `work` with a client of the node on `port` alone (cluster admin commands, CLIENT LIST), then drops it. */
export async function withNode<T>(
  port: number,
  work: (node: ReturnType<typeof createNode>) => Promise<T>,
): Promise<T> {
  const node = createNode(port)
  node.on('error', () => {})
  await node.connect()
  try {
    return await work(node)
  } finally {
    node.destroy()
  }
}

/** The cluster's nodes as seen from `port` (Redis docs, CLUSTER NODES output format). */
export async function clusterNodes(port: number): Promise<ClusterNode[]> {
  const text = await withNode(port, (node) => node.sendCommand<string>(['CLUSTER', 'NODES']))
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id = '', address = '', flags = '', master = '-', , , , , ...slots] = line.split(' ')
      const slotCount = slots
        .filter((range) => !range.startsWith('['))
        .reduce((sum, range) => {
          const [from, to = from] = range.split('-').map(Number) as [number, number?]
          return sum + (to as number) - from + 1
        }, 0)
      return {
        id,
        port: Number(address.split('@')[0]?.split(':')[1]),
        role: flags.includes('master') ? 'master' : 'replica',
        ...(master !== '-' ? { masterId: master } : {}),
        failing: /(^|,)fail\??(,|$)/.test(flags),
        slotCount,
      }
    })
}

/** Why the cluster is not healthy (a node that does not answer, or not `cluster_state:ok`), or undefined. */
export async function clusterProblem(): Promise<string | undefined> {
  const problems = await Promise.all(
    REDIS_CLUSTER_PORTS.map(async (port) => {
      try {
        const info = await withNode(port, (node) => node.sendCommand<string>(['CLUSTER', 'INFO']))
        const state = /cluster_state:(\w+)/.exec(info)?.[1]
        return state === 'ok' ? undefined : `${port}: cluster_state:${state ?? '?'}`
      } catch (error) {
        return `${port}: ${error instanceof Error ? error.message : String(error)}`
      }
    }),
  )
  const found = problems.filter((problem) => problem !== undefined)
  return found.length > 0 ? found.join('; ') : undefined
}

/** True when every node answers and reports `cluster_state:ok`. */
export async function clusterHealthy(): Promise<boolean> {
  return (await clusterProblem()) === undefined
}

/**
 * True when every master that serves slots has a replica whose link is up (INFO replication
 * `slaveN:...,state=online`). A node that rejoined as a replica first copies its master's data in
 * full; until then `WAIT 1` on that master answers 0.
 */
export async function replicasOnline(): Promise<boolean> {
  try {
    const masters = (await clusterNodes(REDIS_CLUSTER_PORTS[0] as number)).filter(
      (node) => node.role === 'master' && node.slotCount > 0,
    )
    const replication = await Promise.all(
      masters.map((master) =>
        withNode(master.port, (node) => node.sendCommand<string>(['INFO', 'replication'])),
      ),
    )
    return replication.every((info) => /^slave\d+:.*state=online/m.test(info))
  } catch {
    return false
  }
}

/** The pid redis-server wrote for the node on `port` (scripts/redis-cluster.sh gives each a pid file). */
export async function nodePid(port: number): Promise<number> {
  const info = await withNode(port, (node) => node.sendCommand<string>(['INFO', 'server']))
  const pid = /process_id:(\d+)/.exec(info)?.[1]
  if (pid === undefined) throw new Error(`node ${port} did not report its process_id`)
  return Number(pid)
}

/** The port of the master that serves `key`'s slot (CLUSTER KEYSLOT, then CLUSTER NODES' slot ranges). */
export async function masterPortOfKey(key: string): Promise<number> {
  const via = REDIS_CLUSTER_PORTS[0] as number
  const slot = Number(await withNode(via, (node) => node.sendCommand(['CLUSTER', 'KEYSLOT', key])))
  const text = await withNode(via, (node) => node.sendCommand<string>(['CLUSTER', 'NODES']))
  for (const line of text.trim().split('\n')) {
    const [, address = '', flags = '', , , , , , ...ranges] = line.split(' ')
    if (!flags.includes('master')) continue
    for (const range of ranges) {
      if (range.startsWith('[')) continue
      const [from, to = from] = range.split('-').map(Number) as [number, number?]
      if (slot >= from && slot <= (to as number)) return Number(address.split('@')[0]?.split(':')[1])
    }
  }
  throw new Error(`no master serves slot ${slot} of ${key}`)
}
