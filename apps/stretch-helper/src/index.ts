export { buildHelper, type HelperOptions, type HelperStats } from './app.js'
export { configFromEnv } from './config.js'
export { checkParams, keyOf, maxmemFor, ONEPW_PARAMS, type ScryptParams } from './params.js'
export { type HelperProcess, type HelperProcessOptions, startHelperProcess } from './process.js'
