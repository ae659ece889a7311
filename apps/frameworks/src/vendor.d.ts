/**
 * @fastify/session's default generator factory (its `lib/idGenerator.js`), which the package ships
 * without a declaration: `(useBase64Url?) => () => string`.
 */
declare module '@fastify/session/lib/idGenerator.js' {
  const createIdGenerator: (useBase64Url?: boolean) => () => string
  export default createIdGenerator
}
