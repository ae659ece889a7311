import type { Cell, Document, Table } from './document.js'
import { markdownText, relativeHref } from './escape.js'

/**
 * A Markdown table laid out as the repository's formatter lays it out (padded cells, an aligned rule),
 * so a README passes its format check; `right` aligns a column's figures to the right. Cells are escaped.
 */
export function alignedTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  right: (column: number) => boolean,
): string[] {
  const escaped = [headers, ...rows].map((r) => r.map(markdownText))
  return alignedCells(escaped, right)
}

/** Already-escaped cells laid out as alignedTable lays them. */
function alignedCells(cells: readonly (readonly string[])[], right: (column: number) => boolean): string[] {
  const header = cells[0] ?? []
  const widths = header.map((_, i) => Math.max(3, ...cells.map((r) => [...(r[i] ?? '')].length)))
  const pad = (cell: string, i: number) => {
    const fill = ' '.repeat((widths[i] ?? 0) - [...cell].length)
    return right(i) ? fill + cell : cell + fill
  }
  const line = (row: readonly string[]) => `| ${row.map(pad).join(' | ')} |`
  const rule = widths.map((w, i) => (right(i) ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w)))
  return [line(header), `| ${rule.join(' | ')} |`, ...cells.slice(1).map(line)]
}

/** A cell as Markdown text: a link as a link, a chart strip left to the HTML report. */
function cellText(cell: Cell): string {
  if (typeof cell === 'string') return markdownText(cell)
  return 'href' in cell ? `[${markdownText(cell.text)}](${relativeHref(cell.href)})` : ''
}

/** A table with its flagged rows italicised and marked ⚠, so they are not read as fact. */
function table(t: Table): string[] {
  // A column of chart strips only is the HTML report's.
  const keep = t.columns.map((_, i) =>
    t.rows.every((r) => r[i] === undefined || typeof r[i] === 'string' || 'href' in (r[i] as object)),
  )
  const columns = t.columns.filter((_, i) => keep[i])
  const rows = t.rows.map((r, n) =>
    r
      .filter((_, i) => keep[i])
      .map((cell, i) => (i === 0 && t.flagged?.[n] ? `⚠ _${cellText(cell)}_` : cellText(cell))),
  )
  // Figures align right: a column whose every filled cell starts with a number.
  const numeric = columns.map(
    (_, i) => i > 0 && rows.every((r) => (r[i] ?? '') === '' || /^[-+]?[\d.,]/.test(r[i] ?? '')),
  )
  return [
    ...(t.caption ? [`### ${markdownText(t.caption)}`, ''] : []),
    ...alignedCells([columns.map(markdownText), ...rows], (i) => numeric[i] === true),
    ...(t.notes?.length ? ['', ...t.notes.map((n) => `- ${markdownText(n)}`)] : []),
  ]
}

/** The document as Markdown: the environment, how to read it, then each section's charts, tables and notes. */
export function renderMarkdown(doc: Document): string {
  const out = [
    `# ${markdownText(doc.title)}`,
    '',
    ...doc.environment.map(([k, v]) => `- **${markdownText(k)}**: ${markdownText(v)}`),
  ]
  for (const paragraph of doc.legend ?? []) out.push('', markdownText(paragraph))
  for (const section of doc.sections) {
    out.push('', `## ${markdownText(section.heading)}`)
    if (section.intro) out.push('', markdownText(section.intro))
    for (const chart of section.charts ?? [])
      if (chart.file) out.push('', `![${markdownText(chart.title)}](${relativeHref(chart.file)})`)
    for (const t of section.tables ?? []) out.push('', ...table(t))
    if (section.notes?.length) out.push('', ...section.notes.map((n) => `- ${markdownText(n)}`))
  }
  return `${out.join('\n')}\n`
}
