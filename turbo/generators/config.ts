import type { PlopTypes } from '@turbo/gen'
import { KINDS, nextSteps, scaffoldStrategy, validate } from './scaffold.mjs'

// `npx turbo gen strategy`; non-interactively `npx turbo gen strategy --args id <name> <wraps>`, or through
// the installed @turbo/gen directly: `npx gen run strategy --args id <name> <wraps>`.
// turbo bundles this file to CommonJS before loading it, so the repository root comes from the
// answers turbo adds (`turbo.paths.root`), not from import.meta.
export default function generator(plop: PlopTypes.NodePlopAPI): void {
  plop.setGenerator('strategy', {
    description: 'A new @authlab strategy package: session-ID generator or password hasher',
    prompts: [
      {
        type: 'list',
        name: 'kind',
        message: 'Kind of strategy',
        choices: Object.entries(KINDS).map(([value, { label }]) => ({ name: `${value} (${label})`, value })),
      },
      {
        type: 'input',
        name: 'name',
        message: 'Name (the package becomes @authlab/<kind>-<name>)',
        validate: validate.name,
      },
      {
        type: 'input',
        name: 'wraps',
        message: 'Wrapped dependency (npm package or Node API)',
        default: 'node:crypto',
        validate: validate.wraps,
      },
    ],
    actions: [
      (answers) => {
        const { kind, name, wraps, turbo } = answers as {
          kind: string
          name: string
          wraps: string
          turbo: { paths: { root: string } }
        }
        const { packageName, files } = scaffoldStrategy(turbo.paths.root, { kind, name, wraps })
        return `${packageName}: ${files.join(', ')}. Next: ${nextSteps(packageName)}`
      },
    ],
  })
}
