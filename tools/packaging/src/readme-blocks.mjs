#!/usr/bin/env node
// Text that several package READMEs share (the install-scripts paragraph, the express-session login
// example) is written once, in tools/packaging/readme-blocks/<name>.md, and copied into each README
// between `<!-- block <name> -->` and `<!-- /block -->`, with `{{package}}` replaced by that package's
// name. Each README stays whole where npm shows it on its own; the copies cannot drift, because
// test/readme-blocks.test.ts fails while any README differs from what this writes.
//
//   node tools/packaging/src/readme-blocks.mjs           rewrite every block
//   node tools/packaging/src/readme-blocks.mjs --check   exit 1, naming the READMEs that are out of date
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REPO_ROOT, readManifest, workspaceDirs } from './workspace.mjs'

export const BLOCKS_DIR = fileURLToPath(new URL('../readme-blocks/', import.meta.url))

const BLOCK = /<!-- block ([a-z0-9-]+) -->\n[\s\S]*?<!-- \/block -->/g

/**
 * The text of block `name` for `packageName`.
 * @param {string} name @param {string} packageName @param {string} [dir]
 */
export function blockText(name, packageName, dir = BLOCKS_DIR) {
  const file = join(dir, `${name}.md`)
  if (!existsSync(file)) throw new Error(`no README block "${name}" (expected ${file})`)
  return readFileSync(file, 'utf8').replaceAll('{{package}}', packageName)
}

/**
 * `readme` with every block replaced by its current text.
 * @param {string} readme @param {string} packageName @param {string} [dir]
 */
export function renderBlocks(readme, packageName, dir = BLOCKS_DIR) {
  return readme.replace(
    BLOCK,
    (_, /** @type {string} */ name) =>
      `<!-- block ${name} -->\n${blockText(name, packageName, dir)}<!-- /block -->`,
  )
}

/**
 * Every workspace README with blocks: its path, its text now, and its text as rendered.
 * @param {string} [root]
 * @returns {{ file: string, text: string, rendered: string }[]}
 */
export function readmesWithBlocks(root = REPO_ROOT) {
  return workspaceDirs(root).flatMap((dir) => {
    const file = join(dir, 'README.md')
    if (!existsSync(file)) return []
    const text = readFileSync(file, 'utf8')
    if (!text.includes('<!-- block ')) return []
    const rendered = renderBlocks(text, readManifest(dir).name)
    return [{ file: relative(root, file), text, rendered }]
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stale = readmesWithBlocks().filter(({ text, rendered }) => text !== rendered)
  if (process.argv.includes('--check')) {
    for (const { file } of stale)
      console.error(`${file}: a README block differs from tools/packaging/readme-blocks`)
    process.exit(stale.length > 0 ? 1 : 0)
  }
  for (const { file, rendered } of stale) {
    writeFileSync(join(REPO_ROOT, file), rendered)
    console.log(`wrote ${file}`)
  }
}
