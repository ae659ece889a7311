/** The JSON error reply both frameworks send. */
export interface ErrorReply {
  readonly status: number
  readonly body: { readonly error: string }
}

/**
 * Maps a thrown error to a reply. Client errors raised by the frameworks and their parsers (body too
 * large: 413, malformed JSON: 400) carry `status` or `statusCode` and keep it; everything else is a
 * 500 whose message is hidden unless `expose` is set, since it may describe the backend.
 */
export function errorReply(error: unknown, expose: boolean, onError?: (error: unknown) => void): ErrorReply {
  const { status, statusCode, message } = (error ?? {}) as {
    status?: unknown
    statusCode?: unknown
    message?: unknown
  }
  const code = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : 500
  const text = typeof message === 'string' ? message : String(error)
  if (code >= 400 && code < 500) return { status: code, body: { error: text } }
  onError?.(error)
  return { status: 500, body: { error: expose ? text : 'internal server error' } }
}
