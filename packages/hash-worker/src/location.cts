/**
 * The directory of this build (dist/esm or dist/cjs). A `.cts` file compiles to CommonJS in both
 * builds, so `__dirname` names the right folder whether the package was imported or required —
 * the worker script and the strategies are found next to the package, wherever the app runs from.
 */
export const buildDirectory: string = __dirname
