import { randomUUID } from 'node:crypto'
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { InvalidOptionError } from '@authlab/core'

/**
 * A path the bench will not read or write: not a regular file (a symbolic link, FIFO, socket, device or
 * directory), or larger than the bench reads. A results folder is untrusted input: a FIFO named
 * `*.json` blocks a plain read forever, and a symbolic link named like a report redirects a plain write
 * to its target, anywhere the user may write (CWE-59, CWE-61).
 */
export class NotRegularFileError extends InvalidOptionError {
  readonly path: string
  /** What the path is instead: "a symbolic link", "a FIFO", "larger than … bytes". */
  readonly what: string
  constructor(path: string, what: string) {
    super(`${path}: ${what}: only regular files are read or written`)
    this.path = path
    this.what = what
  }
}

/** What kind of non-regular entry `stats` describes, for the error and the index's "skipped" list. */
export function entryKind(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isSocket()) return 'a socket'
  if (stats.isDirectory()) return 'a directory'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a regular file'
}

/**
 * The text of `path` if it is a regular file of at most `maxBytes`. Opened with O_NOFOLLOW (a symbolic
 * link fails with ELOOP) and O_NONBLOCK (a FIFO opens at once instead of waiting for a writer), then
 * checked with fstat on the open descriptor, so a swap between a check and the open changes nothing.
 */
export function readRegularFile(path: string, maxBytes: number): string {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new NotRegularFileError(path, 'a symbolic link')
    throw error
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new NotRegularFileError(path, entryKind(stats))
    if (stats.size > maxBytes) throw new NotRegularFileError(path, `larger than ${maxBytes} bytes`)
    const buffer = Buffer.alloc(stats.size)
    let filled = 0
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, null)
      if (read === 0) break
      filled += read
    }
    return buffer.toString('utf8', 0, filled)
  } finally {
    closeSync(fd)
  }
}

/**
 * Writes `text` to `path` without following a symbolic link or writing into anything but a regular
 * file: an existing `path` that is not a regular file is refused, and the text goes to a new temporary
 * file in the same folder (O_CREAT | O_EXCL | O_NOFOLLOW: it cannot be an existing file or a link),
 * renamed over `path`. rename(2) replaces the directory entry itself and never follows a link, so a
 * link put in place after the check is replaced, not written through.
 */
export function writeRegularFile(path: string, text: string): void {
  let existing: Stats | undefined
  try {
    existing = lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (existing && !existing.isFile()) throw new NotRegularFileError(path, entryKind(existing))
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`)
  const fd = openSync(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  )
  try {
    try {
      writeFileSync(fd, text, 'utf8')
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, path)
  } catch (error) {
    try {
      unlinkSync(temporary)
    } catch {
      // Already renamed into place, or never created: nothing to remove.
    }
    throw error
  }
}
