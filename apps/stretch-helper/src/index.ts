export {
  buildHelper,
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  type HelperOptions,
  type HelperStats,
} from './app.js'
export { type CapacityLevel, type CapacityOptions, type CapacityResult, runCapacity } from './capacity.js'
export { configFromEnv } from './config.js'
export { parseDurationMs } from './duration.js'
export { checkParams, keyOf, maxmemFor, ONEPW_PARAMS, type ScryptParams } from './params.js'
export { type HelperProcess, type HelperProcessOptions, startHelperProcess } from './process.js'
export { type RemoteScryptSetup, startRemoteScrypt } from './remote.js'
