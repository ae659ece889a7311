export type Kind = 'id' | 'hash' | 'stretch'

export interface KindConvention {
  readonly label: string
  /** The factory every package of the kind exports. */
  readonly factory: string
  /** The ready-made default export, when the kind has one. */
  readonly ready: string | undefined
  /** Hash packages only: the export listing the algorithms of a multi-algorithm package. */
  readonly algorithms?: string
}

export type RuntimeId = 'node' | 'node24' | 'node22' | 'bun' | 'deno' | 'chromium' | 'firefox' | 'workerd'
export declare const RUNTIMES: readonly RuntimeId[]

export declare const KINDS: Readonly<Record<Kind, KindConvention>>

export interface Manifest {
  name: string
  version: string
  private?: boolean
  authlab?: {
    kind?: string
    runtimes?: unknown
    notInBrowsers?: string
    notInWorkerd?: string
    workerdAlgorithms?: string[]
    node?: string
  }
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  engines?: { node?: string }
  workspaces?: string[]
  exports?: unknown
  main?: string
  [key: string]: unknown
}

export interface WorkspacePackage {
  readonly dir: string
  readonly manifest: Manifest
}

/** A strategy package found in the workspace by its `"authlab": { "kind" }` declaration. */
export interface StrategyPackage {
  readonly name: string
  readonly version: string
  readonly kind: Kind
  /** Absolute directory of the package. */
  readonly dir: string
  /** Runtime dependencies with the versions actually installed. */
  readonly dependencies: Readonly<Record<string, string>>
  /** The runtimes its manifest claims, in RUNTIMES order. */
  readonly runtimes: readonly RuntimeId[]
  /** Why it does not run in both browsers, when it does not. */
  readonly notInBrowsers: string | undefined
  /** Why it (or its algorithms outside `workerdAlgorithms`) does not run in workerd. */
  readonly notInWorkerd?: string | undefined
  /** The algorithms that run in workerd, when it claims workerd for some only. */
  readonly workerdAlgorithms?: readonly string[] | undefined
  /** The Node it needs to work (`authlab.node`, else `engines.node`), e.g. `>=20.19`. */
  readonly nodeEngine?: string | undefined
}

/** A loaded strategy package: its metadata plus the module's named exports. */
export interface LoadedPackage extends StrategyPackage {
  readonly exports: Readonly<Record<string, unknown>>
}

export type LoadOutcome = { ok: true; pkg: LoadedPackage } | { ok: false; name: string; reason: string }

export declare function readManifest(dir: string): Manifest
export declare function workspaceDirs(root: string): string[]
export declare function workspacePackages(root: string): WorkspacePackage[]
export declare function publishablePackages(root: string): WorkspacePackage[]
export declare function kindOf(pkg: WorkspacePackage): Kind | undefined
export declare function runtimeProblems(manifest: Manifest): string[]
export declare function runtimesOf(
  pkg: WorkspacePackage,
): Pick<StrategyPackage, 'runtimes' | 'notInBrowsers' | 'notInWorkerd' | 'workerdAlgorithms'>
export declare function installedVersion(dir: string, dependency: string): string
export declare function discoverPackages(root: string): StrategyPackage[]
export declare function nodeRequirement(manifest: Manifest): string | undefined
export declare function nodeEngineProblem(
  pkg: { readonly nodeEngine?: string | undefined },
  version?: string,
): string | undefined
export declare function esmEntry(pkg: { readonly dir: string }): string
export declare function loadPackages(packages: readonly StrategyPackage[]): Promise<LoadOutcome[]>
export declare function factoryOf(pkg: LoadedPackage): (options?: unknown) => unknown
/** Enough of a loaded module to read its hash conventions: a package, or a user's `--candidate` file. */
export type HashModule = Pick<LoadedPackage, 'name' | 'exports'>

export declare function hashAlgorithms(pkg: HashModule): readonly string[]
/** The algorithms a hash package claims in runtime `id` (`workerdAlgorithms` narrows workerd). */
export declare function hashAlgorithmsIn(pkg: LoadedPackage, id: string): readonly string[]
export declare function hashOptions(
  pkg: HashModule,
  algorithm: string,
  params: Readonly<Record<string, number>>,
): Record<string, unknown> | undefined

/** Everything a reader needs to interpret absolute figures. */
export interface Environment {
  readonly date: string
  readonly commit: string
  /** Uncommitted changes to tracked files at run time. */
  readonly dirty: boolean
  readonly cpu: string
  readonly cores: number
  readonly os: string
  readonly arch: string
  /** The Node running the harness, as it reports itself. */
  readonly runtime: string
  /** With --runtime: each runtime that ran, as it reported itself from inside (not as asked for). */
  readonly runtimes?: readonly { id: string; name: string; version: string }[]
  readonly loadAverage: readonly number[]
  readonly threadpool: string
  readonly mode: 'quick' | 'full'
  /** Every strategy package and each of its installed dependencies, name → version. */
  readonly packages: Readonly<Record<string, string>>
}
export declare function threadpoolNote(env?: NodeJS.ProcessEnv): string
export declare function loadAverage(): number[]
export declare function runningRuntime(versions?: NodeJS.ProcessVersions): string
export declare function captureEnvironment(
  root: string,
  packages: readonly Pick<StrategyPackage, 'name' | 'version' | 'dependencies'>[],
  mode: 'quick' | 'full',
  toolVersions: Readonly<Record<string, string>>,
): Environment
