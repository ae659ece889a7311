export { type CellOptions, checkCell, LOGIN } from './cell.js'
export { CheckFailure, type Outcome } from './check.js'
export {
  clusterHealthy,
  clusterNodes,
  clusterProblem,
  ensureCluster,
  masterPortOfKey,
  nodePid,
  replicasOnline,
  withNode,
} from './cluster/control.js'
export {
  CLUSTER_CLIENTS,
  CLUSTER_FAULTS,
  CLUSTER_PATTERNS,
  type ClusterClient,
  type ClusterFault,
  type ClusterFaultOptions,
  type ClusterFaultReport,
  type ClusterPattern,
  runClusterFault,
  WAIT_TIMEOUT_MS,
} from './cluster/faults.js'
export {
  type CrossProcessRaceOptions,
  type CrossProcessRaceReport,
  runCrossProcessRace,
} from './cluster/logout.js'
export { readDuringWait, type WaitReadReport } from './cluster/wait-read.js'
export {
  FAULT_KINDS,
  type FaultCellOptions,
  type FaultCellReport,
  type FaultColumnOptions,
  type FaultKind,
  runFaultCell,
  runFaultColumn,
  SAVE_PATTERNS,
  type SavePattern,
} from './fault/cell.js'
export type { LoadCounts } from './fault/load.js'
export { type FaultMode, FaultProxy } from './fault/proxy.js'
export { CHART_LENGTHS, createFixedLengthGenerator } from './fixed-length.js'
export {
  GENERATOR_HEADER,
  GeneratorSwitch,
  type GeneratorUnderTest,
  openHarness,
  type StoreHarness,
} from './harness.js'
export type { Latency } from './latency.js'
export {
  type CellReport,
  type LengthReport,
  type MatrixOptions,
  runStore,
  type StoreReport,
  unreachableReport,
} from './matrix.js'
export {
  RACE_GUARDS,
  RACE_VARIANTS,
  type RaceColumnOptions,
  type RaceGuard,
  type RaceOptions,
  type RaceReport,
  type RaceVariant,
  runLogoutRace,
  runRaceColumn,
  TOMBSTONE_PLACES,
  type TombstonePlace,
} from './race.js'
export { cellText, type MatrixResults, toMarkdown } from './report.js'
export {
  clusterPorts,
  DEFAULT_CLUSTER_PORTS,
  isReachable,
  MARIADB,
  POSTGRES,
  REDIS,
  REDIS_CLUSTER,
  REDIS_CLUSTER_PORTS,
  unreachableMessage,
} from './services.js'
export * from './stores/index.js'
