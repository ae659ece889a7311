/** Variables npm sets for a script that describe the enclosing project, not the user's npm config. */
const ENCLOSING_PROJECT =
  /^npm_(package_|lifecycle_|config_(local_prefix|workspaces?|include_workspace_root)$)/i

/**
 * The environment for a child npm, node or turbo run in another directory: without what an
 * enclosing `npm test` or `npx` says about this workspace (npm_config_local_prefix names it), so the
 * child sees only its own directory, as in a fresh shell there. Registry and cache settings stay.
 * @returns {NodeJS.ProcessEnv}
 */
export function childEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !ENCLOSING_PROJECT.test(key)))
}
