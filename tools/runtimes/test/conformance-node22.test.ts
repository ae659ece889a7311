import { runtimeConformance } from './runtime-conformance.js'

runtimeConformance('node22')
