export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  child(fields: Record<string, unknown>): Logger
  /** Whether `debug` lines are written; lets hot paths skip building them. */
  readonly debugEnabled: boolean
}

/** JSON-line logger on stdout (or a custom sink, for tests). */
export function createLogger(level: LogLevel = 'info', base: Record<string, unknown> = {}, sink: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const min = ORDER[level]
  const log = (lvl: LogLevel) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[lvl] < min) return
    sink(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }))
  }
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (fields) => createLogger(level, { ...base, ...fields }, sink),
    debugEnabled: min <= ORDER.debug,
  }
}

/** A logger that drops everything; tests that do not read logs use it. */
export const silentLogger: Logger = createLogger('error', {}, () => {})
