/**
 * One self-contained HTML page: inline CSS and inline SVG charts, no script, no CDN, no network. It
 * opens from disk, from an e-mail attachment or from a CI artefact exactly the same way.
 */

export interface HtmlTable {
  readonly columns: readonly string[]
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

export interface HtmlSection {
  readonly heading: string
  readonly intro?: string
  /** Rendered SVG charts (from charts.ts). */
  readonly charts: readonly string[]
  readonly table?: HtmlTable
  /** Explanations shown under the table: flags, noise floors, skipped rows and why. */
  readonly notes: readonly string[]
}

export interface HtmlPage {
  readonly title: string
  /** The environment, shown first: CPU, cores, OS, runtimes, commit, date, load. */
  readonly environment: ReadonlyArray<readonly [string, string]>
  readonly sections: readonly HtmlSection[]
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem}h2{margin-top:2.4rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
dl.env{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;background:#f6f6f6;padding:.8rem 1rem;border-radius:6px}
dl.env dt{font-weight:600}dl.env dd{margin:0}
table{border-collapse:collapse;margin:1rem 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #e4e4e4;padding:.25rem .6rem;text-align:right}th:first-child,td:first-child{text-align:left}
figure{margin:1rem 0;overflow-x:auto}ul.notes{color:#444}`

/** The page as one string. Every text is escaped; only the SVGs, made by our own renderer, are inlined. */
export function renderHtml(page: HtmlPage): string {
  const environment = page.environment
    .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('')
  const sections = page.sections.map(renderSection).join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(page.title)}</h1>
<dl class="env">${environment}</dl>
${sections}
</body></html>
`
}

function renderSection(section: HtmlSection): string {
  const intro = section.intro ? `<p>${escapeHtml(section.intro)}</p>` : ''
  const charts = section.charts.map((svg) => `<figure>${svg}</figure>`).join('')
  const table = section.table ? renderTable(section.table) : ''
  const notes = section.notes.length
    ? `<ul class="notes">${section.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>`
    : ''
  return `<section><h2>${escapeHtml(section.heading)}</h2>${intro}${charts}${table}${notes}</section>`
}

function renderTable({ columns, rows }: HtmlTable): string {
  const head = `<tr>${columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('')
  return `<table><thead>${head}</thead><tbody>${body}</tbody></table>`
}
