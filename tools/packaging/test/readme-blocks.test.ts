import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { BLOCKS_DIR, blockText, readmesWithBlocks, renderBlocks } from '../src/readme-blocks.mjs'
import { REPO_ROOT } from '../src/workspace.mjs'

const readmes = readmesWithBlocks()
const blocks = readdirSync(BLOCKS_DIR).map((file) => file.replace(/\.md$/, ''))

test('every README block is the text of its file in tools/packaging/readme-blocks', () => {
  expect(readmes.length).toBeGreaterThan(20)
  const stale = readmes.filter(({ text, rendered }) => text !== rendered).map(({ file }) => file)
  expect(stale, 'run `node tools/packaging/src/readme-blocks.mjs`').toEqual([])
})

test('each block is used, and its text stands nowhere outside a block: written once', () => {
  const outside = readmes.map(({ file, text }) => ({
    file,
    text: text.replace(/<!-- block [a-z0-9-]+ -->\n[\s\S]*?<!-- \/block -->/g, ''),
  }))
  for (const name of blocks) {
    expect(
      readmes.some(({ text }) => text.includes(`<!-- block ${name} -->`)),
      name,
    ).toBe(true)
    // The block's longest line, as it reads in any README (`{{package}}` left out).
    const lines = blockText(name, '').split('\n')
    const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), '')
    const copies = outside.filter(({ text }) => text.includes(longest))
    expect(copies.map(({ file }) => `${file}: ${name}`)).toEqual([])
  }
})

test('a block renders with its package name; a changed block file changes the README; an unknown block is an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'authlab-blocks-'))
  writeFileSync(join(dir, 'use.md'), "import { hasher } from '{{package}}'\n")
  const readme = '# x\n\n<!-- block use -->\nold\n<!-- /block -->\n\nafter\n'
  const once = renderBlocks(readme, '@authlab/hash-x', dir)
  expect(once).toBe(
    "# x\n\n<!-- block use -->\nimport { hasher } from '@authlab/hash-x'\n<!-- /block -->\n\nafter\n",
  )
  expect(renderBlocks(once, '@authlab/hash-x', dir)).toBe(once)
  writeFileSync(join(dir, 'use.md'), 'changed\n')
  expect(renderBlocks(once, '@authlab/hash-x', dir)).toContain('<!-- block use -->\nchanged\n<!-- /block -->')
  expect(() => renderBlocks('<!-- block nope -->\n<!-- /block -->', 'p', dir)).toThrow(
    /no README block "nope"/,
  )
})

test('the scaffolding templates hold each block as it renders, so a new package starts up to date', () => {
  const templates = join(REPO_ROOT, 'turbo/generators/templates')
  const stale = readdirSync(templates)
    .map((kind) => join(templates, kind, 'README.md.tmpl'))
    .filter((file) => existsSync(file))
    .filter((file) => {
      const text = readFileSync(file, 'utf8')
      return renderBlocks(text, '{{packageName}}') !== text
    })
  expect(stale, 'copy the blocks from tools/packaging/readme-blocks into these templates').toEqual([])
})
