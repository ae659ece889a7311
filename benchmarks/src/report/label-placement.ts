/**
 * Labels beside points without overlaps, in pixels: each label tries the spots next to its point, then
 * spots further up or down joined to the point by a leader line, and takes the first whose box clears
 * every placed label, every point and the plot's edges. Boxes are measured conservatively (every
 * character as wide as a digit of a sans-serif font), so a label the renderer draws narrower still clears.
 */

/** Width of one character as a share of the font size: DejaVu Sans's digits (0.636 em), rounded up. */
export const CHAR_EM = 0.65
/** Height of a line box as a share of the font size. */
export const LINE_EM = 1.25

export interface Box {
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

export const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1

/** The box of a text drawn at (x, y) with its anchor and a middle baseline, measured conservatively. */
export function textBox(
  text: string,
  x: number,
  y: number,
  anchor: 'start' | 'end' | 'middle',
  fontSize: number,
): Box {
  const width = [...text].length * fontSize * CHAR_EM
  const x0 = anchor === 'start' ? x : anchor === 'end' ? x - width : x - width / 2
  const half = (fontSize * LINE_EM) / 2
  return { x0, y0: y - half, x1: x0 + width, y1: y + half }
}

export interface PlacedLabel {
  readonly text: string
  /** The text's anchor point, pixels. */
  readonly x: number
  readonly y: number
  readonly anchor: 'start' | 'end'
  /** Where its leader line starts (the point), when the label sits away from it. */
  readonly leader?: { readonly x: number; readonly y: number }
}

export interface Placement {
  readonly width: number
  readonly height: number
  readonly fontSize: number
  /** The radius around each point no label may cover. */
  readonly pointRadius: number
}

/** Offsets tried in order: beside the point, then up and down in steps of a line, farther each time. */
function* spots(lineHeight: number): Generator<{ dx: number; dy: number; anchor: 'start' | 'end' }> {
  const gap = 8
  for (const anchor of ['start', 'end'] as const) yield { dx: anchor === 'start' ? gap : -gap, dy: 0, anchor }
  for (let k = 1; k <= 12; k++)
    for (const sign of [-1, 1])
      for (const anchor of ['start', 'end'] as const)
        yield { dx: anchor === 'start' ? gap : -gap, dy: sign * k * (lineHeight + 2), anchor }
}

/**
 * Places `labels` (each at its point, in pixels) in the order given, so the first ones get the spots
 * nearest their points. A label that finds no free spot is placed beside its point anyway and the
 * caller's check (a test) fails loudly, rather than the label being dropped.
 */
export function placeLabels(
  labels: readonly { readonly text: string; readonly x: number; readonly y: number }[],
  points: readonly { readonly x: number; readonly y: number }[],
  p: Placement,
): PlacedLabel[] {
  const lineHeight = p.fontSize * LINE_EM
  const r = p.pointRadius
  const taken: Box[] = points.map((q) => ({ x0: q.x - r, y0: q.y - r, x1: q.x + r, y1: q.y + r }))
  const inside = (b: Box) => b.x0 >= 0 && b.y0 >= 0 && b.x1 <= p.width && b.y1 <= p.height
  return labels.map((label) => {
    for (const s of spots(lineHeight)) {
      const [x, y] = [label.x + s.dx, label.y + s.dy]
      const box = textBox(label.text, x, y, s.anchor, p.fontSize)
      if (!inside(box) || taken.some((t) => overlaps(t, box))) continue
      taken.push(box)
      return {
        text: label.text,
        x,
        y,
        anchor: s.anchor,
        ...(s.dy !== 0 ? { leader: { x: label.x, y: label.y } } : {}),
      }
    }
    return { text: label.text, x: label.x + 8, y: label.y, anchor: 'start' as const }
  })
}
