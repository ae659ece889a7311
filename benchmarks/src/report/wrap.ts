/** The compact tables fit this many columns: a default terminal is 80–100 wide, and wrapped tables are unreadable. */
export const COMPACT_WIDTH = 100

export interface TerminalOptions {
  readonly color: boolean
  /** Every column (rme, rounds, each baseline, every detail, flags) instead of the compact four. */
  readonly wide: boolean
  readonly width?: number
}

/** Shortens text to `width` columns with an ellipsis; `--wide` prints it whole. */
export function fit(text: string, width: number): string {
  const chars = [...text]
  return chars.length <= width ? text : `${chars.slice(0, Math.max(width - 1, 1)).join('')}…`
}

/** A figure and its unit stay on one line: "(±10 %)" and "290 ms" are never split. */
const UNIT = /^(%|ms|µs|ns|s|KiB|MiB|GiB|req\/s)(\W|$)/

function unbreakable(words: readonly string[]): string[] {
  const joined: string[] = []
  for (const word of words) {
    const previous = joined.at(-1)
    if (previous !== undefined && UNIT.test(word) && /\d$/.test(previous))
      joined[joined.length - 1] = `${previous} ${word}`
    else joined.push(word)
  }
  return joined
}

/**
 * Breaks prose at spaces so no line is longer than `width` (the notes are paragraphs). `first` indents
 * the first line, `indent` the others: a list entry hangs its continuation lines under its text.
 */
export function wrap(text: string, width: number, indent: string, first = indent): string[] {
  const lines: string[] = []
  let line = ''
  const lead = () => (lines.length === 0 ? first : indent)
  for (const word of unbreakable(text.split(/\s+/))) {
    const next = line ? `${line} ${word}` : word
    if ([...lead(), ...next].length > width && line) {
      lines.push(lead() + line)
      line = word
    } else line = next
  }
  if (line) lines.push(lead() + line)
  return lines.map((l) => fit(l, width))
}
