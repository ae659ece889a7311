/**
 * What a suite outside this package declares itself with (the server suites' workspace, or yours): the
 * declaration's types, the rounds and placement the harness runs, the candidates' discovery and the
 * statistics every ratio is made with. A workspace package whose package.json declares
 * `"authlab": { "benchSuites": "<entry>" }` and whose entry exports `suites` is found by the bench.
 */

export { HTTP_CEILING, ID_BASELINES, ID_CEILING } from '../discover/baselines.js'
export { loadCandidates } from '../discover/candidates.js'
export { BENCH_PASSWORD, type CostSetting, costSettings, instantiate } from '../discover/settings.js'
export type { Candidates, HashCandidate, IdCandidate } from '../model/candidates.js'
export { settingKey } from '../model/keys.js'
export type { Flag, Ratio } from '../model/types.js'
export type { SuiteView } from '../model/view.js'
export { defaultCharts, groupRows, pairChart, slug } from '../report/suite-charts.js'
export { goalText } from '../report/words.js'
export { median, quantile } from '../stats/stats.js'
export { goalVerdict, limitFlags, MIN_ROUNDS, summarizeRatio } from '../stats/verdict.js'
export { spawnJsonChild } from './child.js'
export { pinProcess } from './placement.js'
export { shuffledRounds, wholeRounds } from './rounds.js'
export { controlOf, defined, message, ratioTo } from './rows.js'
export { type MeanCallPlan, meanCallMs } from './sample.js'
export {
  type AnySuite,
  defineSuite,
  type Mode,
  type RoundsBudget,
  type SuiteContext,
  type SuiteDeclaration,
  type SuiteResult,
  type SuiteRow,
} from './suite.js'
