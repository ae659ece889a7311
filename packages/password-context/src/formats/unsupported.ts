import { InvalidHashError } from '@authlab/core'

/**
 * A stored hash this context cannot verify. The message names the format family it looks like and
 * never quotes the hash: stored hashes reach error logs, and a hash in a log is an offline-guessing
 * target. `family` is the same name, for code.
 */
export class UnsupportedHashError extends InvalidHashError {
  readonly family: string

  constructor(family: string, message: string) {
    super(message)
    this.family = family
  }
}
