// A `--candidate` module for the bench app: @authlab/id-fast with its loop technique forced (see technique.mjs).
import { techniqueCandidate } from './technique.mjs'

export const createIdGenerator = techniqueCandidate('loop')
