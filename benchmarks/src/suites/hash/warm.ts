import { BENCH_PASSWORD, describeParams } from '../../discover/settings.js'
import { configurationKey, recordCallMs } from '../../harness/call-cost.js'
import { type Capped, warmUp } from '../../harness/prologue.js'
import type { SuiteContext } from '../../harness/suite.js'
import { type Entry, entryKey, type HashBudget, workUnits } from './entries.js'

/** Work units compare only within one algorithm (one package may implement several). */
const workKey = (entry: Entry) => `${entry.candidate.id} ${entry.hasher.info.algorithm}`

/**
 * The warm-up outside the rounds (module init, thread-pool spin-up, JIT) and a self-check: a cold
 * hash, a warm one that sizes the entry against the cap, and a verify of it. Cheapest settings first: a
 * call's time grows in proportion to its work (N·r·p for scrypt, RFC 7914 §2; 2^cost for bcrypt), so the
 * first call timed per candidate and algorithm predicts the costlier ones, and one predicted at over
 * twice the cap is left out without a call (a pure-JS scrypt at N=2^17 would spend seconds on it).
 * Returns the entries to measure and each one's stored hash.
 */
export async function warmEntries(ctx: SuiteContext<HashBudget>, distinct: readonly Entry[]) {
  const cap = ctx.budget.callCapMs
  const timed = new Map<string, { units: number; ms: number }>()
  const encoded = new Map<string, string>()
  const units = new Map(distinct.map((e) => [e, workUnits(e.hasher)]))
  const byWork = [...distinct].sort((a, b) => (units.get(a) ?? 0) - (units.get(b) ?? 0))
  const name = (e: Entry) => ({
    id: `${e.candidate.id} (${describeParams(e.hasher)})`,
    label: e.hasher.info.displayName,
  })
  const prepare = async (entry: Entry): Promise<{ plan?: Entry; capped?: Capped[] }> => {
    const configuration = configurationKey(entry.candidate.id, describeParams(entry.hasher))
    const own = units.get(entry)
    const known = timed.get(workKey(entry))
    const predicted = own !== undefined && known ? (known.ms * own) / known.units : undefined
    if (predicted !== undefined && predicted > 2 * cap) {
      // Later suites read it too, and leave the configuration out the same way.
      recordCallMs(configuration, predicted)
      return { capped: [{ what: name(entry).id, ms: predicted }] }
    }
    // One whose cold call alone took twice the cap is not timed again (a cold call is slower, but not twice as slow).
    const coldStarted = performance.now()
    const cold = await entry.hasher.hash(BENCH_PASSWORD)
    const coldMs = performance.now() - coldStarted
    const started = performance.now()
    const stored = coldMs > 2 * cap ? cold : await entry.hasher.hash(BENCH_PASSWORD)
    const callMs = coldMs > 2 * cap ? coldMs : performance.now() - started
    if (!entry.control) recordCallMs(configuration, callMs)
    if (own !== undefined && !known) timed.set(workKey(entry), { units: own, ms: callMs })
    encoded.set(entryKey(entry), stored)
    if (callMs > cap) return { capped: [{ what: name(entry).id, ms: callMs }] }
    if (!(await entry.hasher.verify(stored, BENCH_PASSWORD))) throw new Error('verify rejected its own hash')
    return { plan: entry }
  }
  const { plans, notes } = await warmUp(ctx, byWork, { capMs: cap, name, prepare })
  const kept = new Set(plans)
  return { live: distinct.filter((e) => kept.has(e)), encoded, notes }
}
