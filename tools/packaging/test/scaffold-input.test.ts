import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { render, scaffoldStrategy } from '../../../turbo/generators/scaffold.mjs'
import { REPO_ROOT } from '../src/workspace.mjs'

// Bad answers are refused with a message naming the rule, before anything is written.
describe('the strategy scaffold refuses bad answers', () => {
  const packagesBefore = readdirSync(join(REPO_ROOT, 'packages'))
  const attempt = (kind: string, name: string, wraps: string, algorithm?: string) => () =>
    scaffoldStrategy(REPO_ROOT, { kind, name, wraps, algorithm })

  test.each([
    ['an unknown kind', 'stretch', 'x', 'node:crypto', /kind must be one of: id, hash/],
    ['an empty name', 'id', '', 'node:crypto', /name must be/],
    ['a name with capitals or underscores', 'id', 'Bad_Name', 'node:crypto', /name must be/],
    ['a path in the name', 'hash', '../escape', 'node:crypto', /name must be/],
    ['quotes in the wrapped dependency', 'id', 'x', "x'; process.exit()", /wraps must be/],
    ['an existing package', 'id', 'random-bytes', 'node:crypto', /packages\/id-random-bytes already exists/],
  ])('%s', (_, kind, name, wraps, message) => {
    expect(attempt(kind, name, wraps)).toThrow(message)
    expect(readdirSync(join(REPO_ROOT, 'packages'))).toEqual(packagesBefore)
  })

  test.each([
    ['a new algorithm for an ID package', 'id', 'new-ids', /a new algorithm needs kind "hash"/],
    ['an algorithm core already has', 'hash', 'scrypt', /algorithm must be a new PHC identifier/],
    ['an identifier PHC strings cannot carry', 'hash', 'SHA_512', /algorithm must be a new PHC identifier/],
  ])('%s', (_, kind, algorithm, message) => {
    expect(attempt(kind, 'fresh-name', 'node:crypto', algorithm)).toThrow(message)
    expect(readdirSync(join(REPO_ROOT, 'packages'))).toEqual(packagesBefore)
  })

  test('a template naming an unknown key is a bug, not an empty string', () => {
    expect(() => render('{{packageName}} {{typo}}', { packageName: 'x' }, 't.tmpl')).toThrow(
      /unknown template key/,
    )
    expect(render('"{{packageName}}"', { packageName: '@authlab/id-x' }, 't.tmpl')).toBe('"@authlab/id-x"')
  })
})
