// A `--candidate` module for the bench app: @authlab/id-fast with its latin1-slice technique forced (see technique.mjs).
import { techniqueCandidate } from './technique.mjs'

export const createIdGenerator = techniqueCandidate('latin1-slice')
