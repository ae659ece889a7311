/**
 * The directory of this file in whichever form runs it (src/fault under Vitest, dist/esm/fault or
 * dist/cjs/fault once built). A `.cts` file compiles to CommonJS in both builds, so `__dirname` exists
 * whether the package was imported or required.
 */
export const faultDirectory = __dirname
