import { access, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { SessionData } from 'express-session'
import { expect, test } from 'vitest'
import { call } from '../src/index.js'
import { fileStore } from '../src/stores/file.js'

/**
 * Documents why the matrix insists on signed cookies and on generators that never emit `/`:
 * session-file-store builds the path with path.join(dir, id + '.json'), so an ID that reaches it
 * (only a correctly signed one does) walks out of the directory, reads the file it lands on, and
 * deletes it when it is not valid JSON. If this test starts failing, the store has been fixed.
 */
test('session-file-store follows ../ in a session ID: reads, then deletes, the file beside its directory', async () => {
  const opened = await fileStore.open('traversal')
  try {
    const decoy = join(dirname(opened.directory as string), 'outside.json')
    expect(await readFile(decoy, 'utf8')).toBe('not a session')
    await expect(call<SessionData | null>((done) => opened.store.get('../outside', done))).rejects.toThrow(
      SyntaxError,
    )
    await expect(access(decoy)).rejects.toMatchObject({ code: 'ENOENT' })
  } finally {
    await opened.close()
  }
})
