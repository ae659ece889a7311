/**
 * One self-contained HTML page: inline CSS and inline SVG charts, no CDN, no network, so it opens the
 * same from disk, an e-mail or a CI artefact. Only the index of runs carries a small inline script.
 */

import type { Cell, Document, Section, Table } from './document.js'
import { htmlText as escapeHtml } from './escape.js'

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem}h2{margin-top:2.4rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
dl.env{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;background:#f6f6f6;padding:.8rem 1rem;border-radius:6px}
dl.env dt{font-weight:600}dl.env dd{margin:0;overflow-wrap:anywhere}
.legend{background:#fbfbf3;border-left:4px solid #e69f00;padding:.4rem 1rem;margin:1rem 0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.4rem 0 .6rem;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border-bottom:1px solid #e4e4e4;padding:.25rem .6rem;text-align:right;vertical-align:middle}
td{white-space:nowrap}th:first-child,td:first-child{text-align:left}td.text{text-align:left;white-space:normal}
tr.flagged td{background:#fff4e0}tr.flagged td:first-child::before{content:"⚠ "}
td svg{display:block}
select{font:inherit;margin:0 .8rem 0 .3rem}details.pair{margin:.6rem 0}details.pair>summary{cursor:pointer}
figure{margin:1rem 0;overflow-x:auto}figcaption{font-weight:600;margin-bottom:.3rem}
ul.notes{color:#444;margin-top:.2rem}`

/** The page as one string. Every text is escaped; only the SVGs, made by our own renderer, are inlined. */
export function renderHtml(page: Document): string {
  const environment = page.environment
    .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('')
  const legend = page.legend?.length
    ? `<div class="legend">${page.legend.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</div>`
    : ''
  const sections = page.sections.map(renderSection).join('\n')
  const script = page.script ? `<script>${page.script.replaceAll('</', '<\\/')}</script>` : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(page.title)}</h1>
<dl class="env">${environment}</dl>
${legend}
${sections}
${script}</body></html>
`
}

const notesList = (notes: readonly string[] | undefined) =>
  notes?.length ? `<ul class="notes">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : ''

function renderSection(section: Section): string {
  const id = section.id ? ` id="${escapeHtml(section.id)}"` : ''
  const intro = section.intro ? `<p>${escapeHtml(section.intro)}</p>` : ''
  const charts = (section.charts ?? [])
    .map(
      (c) =>
        `<figure class="chart" id="${escapeHtml(c.id)}"><figcaption>${escapeHtml(c.title)}</figcaption>${c.svg}</figure>`,
    )
    .join('')
  const tables = (section.tables ?? []).map(renderTable).join('')
  const markup = section.markup ?? ''
  return `<section${id}><h2>${escapeHtml(section.heading)}</h2>${intro}${markup}${charts}${tables}${notesList(section.notes)}</section>`
}

function renderCell(cell: Cell): string {
  if (typeof cell !== 'string') {
    if ('svg' in cell) return `<td class="strip">${cell.svg}</td>`
    return `<td class="text"><a href="${escapeHtml(cell.href)}">${escapeHtml(cell.text)}</a></td>`
  }
  // Numbers align right; words (labels, flags, params) read better from the left.
  const text = /^[\d\s.,×–[\]%+-]*$/.test(cell) ? '' : ' class="text"'
  return `<td${text}>${escapeHtml(cell)}</td>`
}

export function renderTable(table: Table): string {
  const caption = table.caption ? `<caption>${escapeHtml(table.caption)}</caption>` : ''
  const head = `<tr>${table.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`
  const body = table.rows
    .map((row, i) => {
      const cls = table.flagged?.[i] ? ' class="flagged"' : ''
      return `<tr${cls}>${row.map(renderCell).join('')}</tr>`
    })
    .join('')
  return `<div class="scroll"><table>${caption}<thead>${head}</thead><tbody>${body}</tbody></table></div>${notesList(table.notes)}`
}
