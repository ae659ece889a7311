export * from './errors.js'
export * from './id.js'
export * from './hash.js'
