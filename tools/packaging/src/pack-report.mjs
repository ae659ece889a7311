#!/usr/bin/env node
// Prints each publishable package's packed size and module formats, from a real
// `npm pack --dry-run --json` (build first: `npx turbo run build`). Markdown, for release notes.
import { moduleFormats, packPackages } from './pack.mjs'
import { publishablePackages } from './workspace.mjs'

const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KiB`
const rows = packPackages(publishablePackages(), { dryRun: true }).map((result) => {
  const formats = moduleFormats(result).join(', ') || 'none (not built?)'
  const cells = [
    result.name,
    result.version,
    kib(result.size),
    kib(result.unpackedSize),
    result.entryCount,
    formats,
  ]
  return `| ${cells.join(' | ')} |`
})
process.stdout.write(
  [
    '| package | version | packed | unpacked | files | module formats |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n'),
)
