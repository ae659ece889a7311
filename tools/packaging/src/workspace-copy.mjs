import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { REPO_ROOT, readManifest, workspaceDirs } from './workspace.mjs'

/** Build output, installs and caches: what a fresh clone does not have. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.turbo', '.git', 'coverage'])

/**
 * Copies the workspace sources to `destination` without installs or builds, then lays out
 * node_modules the way `npm install` would: registry packages are symlinks into the original
 * install (no download, same versions as the lockfile), while every workspace package links to
 * its copy, so builds, tests and discovery in the copy see only the copy's code.
 * @param {string} destination an empty or absent directory outside the workspace
 * @param {string} [root]
 */
export function copyWorkspace(destination, root = REPO_ROOT) {
  cpSync(root, destination, { recursive: true, filter: (source) => !NOT_COPIED.has(basename(source)) })
  const workspaceNames = new Set(workspaceDirs(destination).map((dir) => readManifest(dir).name))
  linkInstalled(join(root, 'node_modules'), join(destination, 'node_modules'), workspaceNames)
  linkWorkspaces(destination, root)
}

/**
 * What `npm install` does for workspaces, without touching the shared install: links every
 * workspace package of the copy (including ones added after copying) into its node_modules.
 * @param {string} destination the copy @param {string} [root] the original workspace
 */
export function linkWorkspaces(destination, root = REPO_ROOT) {
  for (const dir of workspaceDirs(destination)) {
    const link = join(destination, 'node_modules', readManifest(dir).name)
    if (existsSync(link)) continue
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(relative(dirname(link), dir), link)
    // A workspace's own node_modules holds versions that could not be hoisted: reuse them too.
    const original = join(root, relative(destination, dir), 'node_modules')
    if (existsSync(original) && !existsSync(join(dir, 'node_modules'))) {
      symlinkSync(original, join(dir, 'node_modules'))
    }
  }
}

/**
 * Links every installed entry except workspace packages; a scope directory that holds workspace
 * packages (e.g. @authlab) is recreated so its registry entries can sit beside the copy's links.
 * @param {string} from @param {string} to @param {Set<string>} workspaceNames @param {string} [scope]
 */
function linkInstalled(from, to, workspaceNames, scope) {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from)) {
    const name = scope ? `${scope}/${entry}` : entry
    // Tools' caches (node_modules/.cache: the workspace build's keys) are not part of an install, and
    // a copy writing through a link would change the original's.
    if (workspaceNames.has(name) || (!scope && entry === '.cache')) continue
    const isScopeOfWorkspace =
      !scope && entry.startsWith('@') && [...workspaceNames].some((ws) => ws.startsWith(`${entry}/`))
    if (isScopeOfWorkspace && lstatSync(join(from, entry)).isDirectory()) {
      linkInstalled(join(from, entry), join(to, entry), workspaceNames, entry)
    } else {
      symlinkSync(join(from, entry), join(to, entry))
    }
  }
}
