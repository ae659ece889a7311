import { Worker } from 'node:worker_threads'
import { ClosedError, OverloadError, TimeoutError, WorkerError } from '@authlab/core'
import type { WorkerResult, WorkerTask } from './protocol.js'

export interface PoolLimits {
  readonly threads: number
  readonly maxQueue: number
  readonly taskTimeoutMs: number
  readonly maxWorkerMemoryMb: number
}

type Task = Omit<WorkerTask, 'id'>
interface Job {
  readonly task: Task
  readonly resolve: (result: WorkerResult) => void
  readonly reject: (error: Error) => void
}

interface Thread {
  readonly worker: Worker
  running?: Job & { readonly id: number; readonly timer?: NodeJS.Timeout }
  /** The last 'error' event, reported as the cause when the thread then exits mid-task. */
  failure?: unknown
}

/**
 * A fixed-size pool of worker threads with a bounded FIFO queue. Unlike a general-purpose pool it
 * knows which thread runs which task, which is what bounding a task's cost needs: a task past its
 * time limit is abandoned by terminating its thread (the only way to stop synchronous JS or
 * WebAssembly), and a thread left holding more memory than allowed (a WebAssembly memory never
 * shrinks) is retired after its task. A replacement starts when the next task needs it.
 */
export class WorkerPool {
  readonly #file: string
  readonly #limits: PoolLimits
  #idle: Thread[] = []
  #busy = new Set<Thread>()
  #queue: Job[] = []
  #nextId = 0

  constructor(file: string, limits: PoolLimits) {
    this.#file = file
    this.#limits = limits
  }

  /** Runs a task on a free thread, queues it, or refuses it with an OverloadError when the queue is full. */
  run(task: Task): Promise<WorkerResult> {
    return new Promise((resolve, reject) => {
      const job = { task, resolve, reject }
      let thread: Thread | undefined
      try {
        thread = this.#takeThread()
      } catch (error) {
        // new Worker() itself can fail (e.g. out of threads or memory): still a typed error.
        reject(new WorkerError('a worker thread could not be started', { cause: error }))
        return
      }
      if (thread) this.#start(thread, job)
      else if (this.#queue.length < this.#limits.maxQueue) this.#queue.push(job)
      else {
        reject(
          new OverloadError(
            `all ${this.#limits.threads} worker threads are busy and ${this.#limits.maxQueue} tasks are queued`,
          ),
        )
      }
    })
  }

  /** Rejects every queued and running task with a ClosedError and ends the threads; a later run() starts afresh. */
  async close(): Promise<void> {
    const queued = this.#queue
    const threads = [...this.#idle, ...this.#busy]
    this.#queue = []
    this.#idle = []
    this.#busy = new Set()
    for (const job of queued)
      job.reject(new ClosedError('the worker pool was closed before this task started'))
    for (const thread of threads) {
      const running = thread.running
      thread.running = undefined
      clearTimeout(running?.timer)
      running?.reject(new ClosedError('the worker pool was closed while this task ran'))
    }
    await Promise.all(threads.map((thread) => thread.worker.terminate()))
  }

  #takeThread(): Thread | undefined {
    return (
      this.#idle.pop() ??
      (this.#idle.length + this.#busy.size < this.#limits.threads ? this.#spawn() : undefined)
    )
  }

  #spawn(): Thread {
    const thread: Thread = { worker: new Worker(this.#file) }
    thread.worker.on('message', (result: WorkerResult) => this.#finish(thread, result))
    thread.worker.on('error', (error) => {
      thread.failure = error
    })
    thread.worker.on('exit', (exitCode) => this.#exited(thread, exitCode))
    return thread
  }

  #start(thread: Thread, job: Job): void {
    const id = ++this.#nextId
    const { taskTimeoutMs } = this.#limits
    const timer = Number.isFinite(taskTimeoutMs)
      ? setTimeout(() => this.#timedOut(thread), taskTimeoutMs).unref()
      : undefined
    thread.running = { ...job, id, timer }
    this.#busy.add(thread)
    // A busy thread keeps the process alive until its caller has an answer; an idle one does not.
    thread.worker.ref()
    try {
      thread.worker.postMessage({ ...job.task, id } satisfies WorkerTask)
    } catch (error) {
      // e.g. a password that structured clone cannot copy: this task fails, the thread is fine.
      this.#release(thread)
      job.reject(new WorkerError('the task could not be sent to a worker thread', { cause: error }))
      this.#drain()
    }
  }

  #finish(thread: Thread, result: WorkerResult): void {
    const running = thread.running
    if (running?.id !== result.id) return
    this.#release(thread)
    running.resolve(result)
    if (result.memoryMb > this.#limits.maxWorkerMemoryMb) this.#retire(thread)
    else {
      thread.worker.unref()
      this.#idle.push(thread)
    }
    this.#drain()
  }

  #timedOut(thread: Thread): void {
    const running = thread.running
    if (!running) return
    this.#release(thread)
    this.#retire(thread)
    running.reject(
      new TimeoutError(
        `the task ran longer than ${this.#limits.taskTimeoutMs} ms; its worker thread was stopped`,
      ),
    )
    this.#drain()
  }

  /** A thread that ends while running a task (crash, out of memory, process.exit in the strategy). */
  #exited(thread: Thread, exitCode: number): void {
    const running = thread.running
    this.#busy.delete(thread)
    this.#idle = this.#idle.filter((idle) => idle !== thread)
    if (!running) return
    this.#release(thread)
    running.reject(
      new WorkerError(`the worker thread exited with code ${exitCode} while running this task`, {
        cause: thread.failure,
      }),
    )
    this.#drain()
  }

  #release(thread: Thread): void {
    clearTimeout(thread.running?.timer)
    thread.running = undefined
    this.#busy.delete(thread)
  }

  /** Ends a thread whose state can no longer be trusted or kept; it leaves the pool at once. */
  #retire(thread: Thread): void {
    this.#idle = this.#idle.filter((idle) => idle !== thread)
    void thread.worker.terminate()
  }

  #drain(): void {
    while (this.#queue.length > 0) {
      const thread = this.#takeThread()
      if (!thread) return
      this.#start(thread, this.#queue.shift() as Job)
    }
  }
}
