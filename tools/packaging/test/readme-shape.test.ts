import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { REPO_ROOT } from '../src/workspace.mjs'

// benchmarks/README.md is a guide a person reads top to bottom, not a notebook: short enough to read
// (300 lines) and no line one must scroll sideways for. Tables are exempt from the line length (a row is
// as wide as its columns) but not their cells; so are the blocks `npm run figures` generates, whose text
// benchmarks/src/report/figures.ts writes.
const MAX_LINES = 300
const MAX_LINE = 160
const MAX_CELL = 200

/** The README's lines with their numbers, minus the generated figures blocks. */
function authoredLines(text: string): { line: number; text: string }[] {
  let generated = false
  return text.split('\n').flatMap((line, index) => {
    if (line.startsWith('<!-- figures from ')) generated = true
    const keep = !generated
    if (line === '<!-- /figures -->') generated = false
    return keep ? [{ line: index + 1, text: line }] : []
  })
}

function shapeProblems(text: string): string[] {
  // What `wc -l` counts: a final newline ends the last line, it does not start another.
  const count = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  const problems = count > MAX_LINES ? [`${count} lines`] : []
  for (const { line, text: content } of authoredLines(text)) {
    if (content.startsWith('|')) {
      for (const cell of content.split(/(?<!\\)\|/).slice(1, -1))
        if (cell.trim().length > MAX_CELL)
          problems.push(`line ${line}: a table cell of ${cell.trim().length}`)
    } else if ([...content].length > MAX_LINE)
      problems.push(`line ${line}: ${[...content].length} characters`)
  }
  return problems
}

test(`benchmarks/README.md has at most ${MAX_LINES} lines, none over ${MAX_LINE} characters outside tables`, () => {
  expect(shapeProblems(readFileSync(join(REPO_ROOT, 'benchmarks', 'README.md'), 'utf8'))).toEqual([])
})

test('the check counts lines, measures lines outside tables and cells inside them, and skips generated blocks', () => {
  const long = 'x'.repeat(MAX_LINE + 1)
  expect(shapeProblems(`a\n${long}\n`)).toEqual([`line 2: ${MAX_LINE + 1} characters`])
  expect(shapeProblems(`| ${long} |\n`)).toEqual([])
  expect(shapeProblems(`| ${'y'.repeat(MAX_CELL + 1)} | b |\n`)).toEqual([
    `line 1: a table cell of ${MAX_CELL + 1}`,
  ])
  expect(shapeProblems(`<!-- figures from r.json -->\n${long}\n<!-- /figures -->\n${long}\n`)).toEqual([
    `line 4: ${MAX_LINE + 1} characters`,
  ])
  expect(shapeProblems('a\n'.repeat(MAX_LINES))).toEqual([])
  expect(shapeProblems('a\n'.repeat(MAX_LINES + 1))).toEqual([`${MAX_LINES + 1} lines`])
})
