import type { Config } from '../config/config'
import type { LoopGuard } from '../lib/background'
import type { WorkerMessage, WorkerReply } from './jobs.worker'
import { measureRequestPressure } from './request-pressure'

/** The running job thread: how many cut-off jobs it took back, and how to stop it. */
export type JobThread = { reclaimed: number; stop(): Promise<void> }

/** The job runner in its own thread (src/jobs/jobs.worker.ts); resolves once it runs. `guard`: the request thread's loop guard. */
export async function startJobThread(config: Config, guard: LoopGuard): Promise<JobThread> {
  // In the binary the worker is the extra entry point scripts/build.ts compiles in, addressed by its
  // build path (as .js); from source it is the file beside this one.
  const worker = new Worker(Bun.isStandaloneExecutable ? './jobs/jobs.worker.js' : new URL('./jobs.worker.ts', import.meta.url).href)
  const next = () =>
    new Promise<WorkerReply>((resolve, reject) => {
      worker.addEventListener('message', (e: MessageEvent<WorkerReply>) => resolve(e.data), { once: true })
      worker.addEventListener('error', (e) => reject(new Error(`job thread failed: ${e.message}`)), { once: true })
    })
  const send = async (msg: WorkerMessage) => {
    const reply = next()
    worker.postMessage(msg)
    const r = await reply
    if (r.type === 'failed') throw new Error(`job thread failed: ${r.error}`)
    return r
  }
  // Measured on this (the request) thread; the job thread slows down while it shows requests queueing.
  const pressure = measureRequestPressure(guard)
  let started: WorkerReply
  try {
    started = await send({ type: 'start', config, pressure: pressure.buffer })
  } catch (err) {
    // Nothing is left behind a failed start, so the caller may try again with a new thread.
    pressure.stop()
    worker.terminate()
    throw err
  }
  return {
    reclaimed: started.type === 'started' ? started.reclaimed : 0,
    async stop() {
      await send({ type: 'stop' })
      pressure.stop()
      worker.terminate()
    },
  }
}
