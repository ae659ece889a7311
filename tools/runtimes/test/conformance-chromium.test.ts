import { runtimeConformance } from './runtime-conformance.js'

runtimeConformance('chromium')
