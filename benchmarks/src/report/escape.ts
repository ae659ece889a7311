import { createHash } from 'node:crypto'

/**
 * Escaping for every output format the reporters write: a results file is untrusted input, so every
 * string taken from one goes through the function for the format it lands in.
 */

/**
 * Terminal escape sequences: CSI (`ESC [` … final byte, e.g. clear screen) and OSC (`ESC ]` … BEL or
 * ST, e.g. OSC 8 hyperlinks and window titles), ECMA-48 §5.4 and §8.3.89; their 8-bit forms start
 * with U+009B and U+009D. Any other ESC pair (`ESC c`, a full reset) is covered by the next pattern.
 */
const TERMINAL_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /(?:\u001b\[|\u009b)[\u0020-\u003f]*[\u0040-\u007e]?|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u007e]?/g
/** C0 and C1 control characters and DEL (Unicode category Cc), line breaks included. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g
/** Not XML 1.0 Chars (§2.2): lone surrogates and U+FFFE/U+FFFF, one of which makes a whole SVG unreadable. */
const NOT_XML_CHAR = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g

/** One line of plain text: escape sequences removed, every other control character (newlines too) a space. */
export function plainText(text: string): string {
  return String(text).replace(TERMINAL_SEQUENCE, '').replace(CONTROL, ' ').replace(NOT_XML_CHAR, '\ufffd')
}

/** Text for a terminal: nothing in it can move the cursor, clear the screen, set a title or make a link. */
export const terminalText = plainText

/** A terminal message that may span lines: each line cleaned as `terminalText`, the line breaks kept. */
export const terminalLines = (text: string) => String(text).split('\n').map(terminalText).join('\n')

/** Text content or an attribute value in HTML or XML (SVG): markup characters as entities. */
export function htmlText(text: string): string {
  return plainText(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/** Control characters XML 1.0 forbids (all but tab, line feed and carriage return), and C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const NOT_XML_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g

/** An SVG made elsewhere (vega's renderer), with what XML does not allow removed; its markup is kept. */
export function xmlDocument(svg: string): string {
  return svg.replace(NOT_XML_CONTROL, '').replace(NOT_XML_CHAR, '\ufffd')
}

/**
 * A relative link to a file of ours, for an `href` or a Markdown link: each path segment
 * percent-encoded (so `javascript:alert(1).html` is a file name, not a scheme, RFC 3986 §4.2), the
 * characters encodeURIComponent leaves that could end a Markdown link or an attribute encoded too, and
 * never leaving the page's directory upwards. Still HTML-escape it in an attribute.
 */
export function relativeHref(path: string): string {
  const segments = String(path)
    .split(/[\\/]/)
    .filter((s) => s !== '' && s !== '.' && s !== '..')
  const encode = (segment: string) =>
    encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `./${segments.map(encode).join('/')}`
}

/**
 * CommonMark §2.4: any ASCII punctuation may be backslash-escaped. Escaped always: what opens raw HTML,
 * an autolink or an entity (`<`, `>`, `&`), a code span, emphasis (`*`, `~`), a table cell (`|`) and
 * the backslash itself. A `]` is escaped where a link or image needs it (`](`, `][`, and `]:` of a
 * reference definition), so `[ref]` and `2.50 [2.1–2.9]` stay as they are; `_` only where it can open
 * or close emphasis, not inside a word (`UV_THREADPOOL_SIZE`), CommonMark §6.2.
 */
const MARKDOWN_SPECIAL = /[\\`*<>&|~]|\](?=[([:])|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g

/** Text in a Markdown paragraph, heading or list item: one line, shown literally, no HTML, no links. */
export function markdownText(text: string): string {
  return plainText(text).replace(MARKDOWN_SPECIAL, (c) => `\\${c}`)
}

/** Inline code in Markdown: a backtick fence longer than any run of backticks inside (CommonMark §6.1). */
export function markdownCode(text: string): string {
  const clean = plainText(text)
  const longest = Math.max(0, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${clean}${pad}${fence}`
}

/**
 * A name derived from data (a suite name) as part of a file name: letters, digits, `.`, `_` and `-`
 * only, never `.` or `..` alone, so it cannot name a directory or climb out of one.
 */
export function fileNamePart(name: string): string {
  const safe = String(name).replace(/[^A-Za-z0-9._-]/g, '_')
  return /^\.*$/.test(safe) ? safe.replaceAll('.', '_') || '_' : safe
}

/** File names stay well under the 255 bytes most file systems allow (NAME_MAX), the stem included. */
const MAX_FILE_NAME = 120

/**
 * The SVG file of one chart of a run: `<stem>-<suite>-<chart>.svg`, or, when that is longer than
 * MAX_FILE_NAME, as much of the names as fits and a hash of them, so two long names stay apart.
 */
export function chartFileName(stem: string, suite: string, chart: string): string {
  const named = `${fileNamePart(suite)}-${fileNamePart(chart)}`
  const whole = `${stem}-${named}.svg`
  if (Buffer.byteLength(whole) <= MAX_FILE_NAME) return whole
  const hash = createHash('sha256').update(`${suite}\0${chart}`).digest('hex').slice(0, 12)
  const room = Math.max(8, MAX_FILE_NAME - Buffer.byteLength(stem) - hash.length - 6)
  return `${stem}-${named.slice(0, room)}-${hash}.svg`
}

/** `value` with `clean` applied to every string in it, keys and nesting kept: for a whole record at once. */
export function mapStrings<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === 'string') return clean(value) as T
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, clean)) as T
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [clean(key), mapStrings(item, clean)]),
    ) as T
  return value
}
