import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import session from 'express-session'
import createFileStore from 'session-file-store'
import type { StoreBackend } from './backend.js'

const FileStore = createFileStore(session)
const EXTENSION = '.json'

/**
 * write-file-atomic, which session-file-store writes through, first writes `<name>.<hash>` where the hash
 * is up to 10 decimal digits, so the longest temporary name is the ID plus `.json.` plus 10 characters.
 */
const TEMP_SUFFIX_LENGTH = 1 + 10

/**
 * `session-file-store`: one JSON file per session, named `<session ID>.json`. The raw ID becomes part of a
 * path (path.join), so an ID containing `/` or `..` would escape the directory, and NAME_MAX (255 bytes
 * on ext4 and tmpfs) caps the ID: 239 characters always fit the temporary name, 240–250 only sometimes.
 */
export const fileStore: StoreBackend = {
  name: 'file',
  label: 'session-file-store',
  maxIdLength: 255 - EXTENSION.length - TEMP_SUFFIX_LENGTH,
  async open(scope) {
    const parent = await mkdtemp(join(tmpdir(), `authlab-${scope}-`))
    const path = join(parent, 'sessions')
    // A decoy beside the store directory: what an ID like `../outside` would read, and delete on a parse error.
    await writeFile(join(parent, `outside${EXTENSION}`), 'not a session')
    const store = new FileStore({
      path,
      fileExtension: EXTENSION,
      // No retries: a missing file is an ordinary "no such session", and retrying it costs seconds.
      retries: 0,
      // The reaper forks a process on a timer; the tests close stores instead.
      reapInterval: -1,
      logFn: () => {},
    })
    return {
      store,
      directory: path,
      storedIds: async () =>
        (await readdir(path).catch(() => []))
          .filter((name) => name.endsWith(EXTENSION))
          .map((name) => name.slice(0, -EXTENSION.length)),
      close: () => rm(parent, { recursive: true, force: true }),
    }
  },
}
