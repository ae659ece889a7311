export * from './estimate.js'
export * from './references.js'
