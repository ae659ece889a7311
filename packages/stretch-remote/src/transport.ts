import { RemoteBadResponseError } from '@authlab/core'

/** The helper answers `{"output":"<hex>"}`; anything much longer is not an answer. */
export const MAX_RESPONSE_BYTES = 8192

/** What one POST to the helper brought back, whatever carried it. */
export interface HelperAnswer {
  readonly status: number
  readonly retryAfter: string | string[] | undefined
  readonly text: string
}

/**
 * How requests reach the helper: undici's keep-alive pool on Node (src/undici.ts), `fetch` in a Worker,
 * whose runtime has no sockets for undici (this file). A transport throws ConnectionFailure for what a
 * retry may cure, RemoteBadResponseError for an oversized answer, and the abort signal's reason when
 * the call's deadline ends it.
 */
export interface Transport {
  /** Named in `info.wraps`. */
  readonly name: string
  post(
    path: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<HelperAnswer>
  close(): Promise<void>
}

/** A failure worth another attempt: scrypt is a pure function, so repeating a POST is safe. */
export class RetryableFailure extends Error {
  constructor(
    message: string,
    readonly pushbackMs = 0,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** The connection was refused, reset or closed mid-answer (counted in stats().connectionErrors). */
export class ConnectionFailure extends RetryableFailure {}

/** Bytes to text, refusing more than MAX_RESPONSE_BYTES; `stop` ends the transfer when refused. */
export async function readCapped(chunks: AsyncIterable<Uint8Array>, stop: () => unknown): Promise<string> {
  const parts: Uint8Array[] = []
  let size = 0
  for await (const chunk of chunks) {
    size += chunk.length
    if (size > MAX_RESPONSE_BYTES) {
      await stop()
      throw new RemoteBadResponseError(`the helper's answer exceeded ${MAX_RESPONSE_BYTES} bytes`)
    }
    parts.push(chunk)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    all.set(part, at)
    at += part.length
  }
  return new TextDecoder().decode(all)
}

/** A ReadableStream's chunks as an async iterable (Workers' streams are not async-iterable everywhere). */
async function* chunksOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    yield value
  }
}

/**
 * The helper through the runtime's own `fetch` (Cloudflare Workers, workerd): one request per
 * attempt, the connection reuse left to the runtime. Any rejected fetch that is not the deadline is a
 * connection failure: Workers report refused and reset connections as a TypeError with a message and
 * no code, so a code cannot tell them apart here.
 */
export function fetchTransport(origin: string): Transport {
  return {
    name: 'fetch',
    async post(path, headers, body, signal) {
      let response: Response
      try {
        response = await fetch(new URL(path, origin), { method: 'POST', headers, body, signal })
      } catch (error) {
        if (signal.aborted) throw signal.reason
        throw new ConnectionFailure(`cannot reach the helper (${(error as Error).message})`, 0, {
          cause: error,
        })
      }
      const reader = (response.body ?? new Blob([]).stream()).getReader()
      const text = await readCapped(chunksOf(reader), () => reader.cancel()).catch((error: unknown) => {
        if (signal.aborted) throw signal.reason
        if (error instanceof RemoteBadResponseError) throw error
        throw new ConnectionFailure('the connection closed mid-answer', 0, { cause: error })
      })
      return { status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined, text }
    },
    close: async () => {},
  }
}
