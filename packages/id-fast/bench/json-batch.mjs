// A `--candidate` module for the bench app: @authlab/id-fast with its json-batch technique forced (see technique.mjs).
import { techniqueCandidate } from './technique.mjs'

export const createIdGenerator = techniqueCandidate('json-batch')
