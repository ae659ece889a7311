import type { Runtime } from './index.mjs'

export declare const BROWSER_RUNTIMES: readonly string[]
export declare const GET_BROWSERS: string
export declare function skipReason(id: string, env?: NodeJS.ProcessEnv): string | undefined
export declare function browserSkipNotice(env?: NodeJS.ProcessEnv): string | undefined
export declare function requireRuntime(id: string): Runtime
