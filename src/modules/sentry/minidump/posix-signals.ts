import type { ExceptionRecord, NamedException } from './exception-record'
import { hex8 } from './hex'

/** Linux signal numbers (bits/signum.h): the exception code of Breakpad's and Crashpad's Linux and Android dumps. */
const SIGNALS: readonly string[] = [
  '', 'SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGKILL', 'SIGUSR1', 'SIGSEGV',
  'SIGUSR2', 'SIGPIPE', 'SIGALRM', 'SIGTERM', 'SIGSTKFLT', 'SIGCHLD', 'SIGCONT', 'SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU',
  'SIGURG', 'SIGXCPU', 'SIGXFSZ', 'SIGVTALRM', 'SIGPROF', 'SIGWINCH', 'SIGIO', 'SIGPWR', 'SIGSYS',
]
/** Breakpad's code for a dump taken without a signal. */
const DUMP_REQUESTED = 0xffffffff

/** si_code values per signal (asm-generic/siginfo.h); the record's flags hold si_code. */
const KINDS: Readonly<Record<string, readonly string[]>> = {
  SIGILL: ['', 'ILL_ILLOPC', 'ILL_ILLOPN', 'ILL_ILLADR', 'ILL_ILLTRP', 'ILL_PRVOPC', 'ILL_PRVREG', 'ILL_COPROC', 'ILL_BADSTK', 'ILL_BADIADDR'],
  SIGTRAP: ['', 'TRAP_BRKPT', 'TRAP_TRACE', 'TRAP_BRANCH', 'TRAP_HWBKPT', 'TRAP_UNK', 'TRAP_PERF'],
  SIGFPE: ['', 'FPE_INTDIV', 'FPE_INTOVF', 'FPE_FLTDIV', 'FPE_FLTOVF', 'FPE_FLTUND', 'FPE_FLTRES', 'FPE_FLTINV', 'FPE_FLTSUB'],
  SIGSEGV: ['', 'SEGV_MAPERR', 'SEGV_ACCERR', 'SEGV_BNDERR', 'SEGV_PKUERR'],
  SIGBUS: ['', 'BUS_ADRALN', 'BUS_ADRERR', 'BUS_OBJERR', 'BUS_MCEERR_AR', 'BUS_MCEERR_AO'],
  SIGSYS: ['', 'SYS_SECCOMP'],
}
/** si_code values any signal may carry; SI_USER (0, sent by kill) adds nothing to the name. */
const SI_CODES: Readonly<Record<number, string>> = {
  0x80: 'SI_KERNEL',
  [-1]: 'SI_QUEUE',
  [-2]: 'SI_TIMER',
  [-3]: 'SI_MESGQ',
  [-4]: 'SI_ASYNCIO',
  [-5]: 'SI_SIGIO',
  [-6]: 'SI_TKILL',
  [-7]: 'SI_DETHREAD',
  [-60]: 'SI_ASYNCNL',
}

/** Names a signal and its si_code as minidump_stackwalk does (`SIGSEGV / SEGV_MAPERR`, plain `SIGABRT` when sent by kill). */
export function posixSignal(r: ExceptionRecord): NamedException {
  if (r.code === DUMP_REQUESTED) return { name: 'DUMP_REQUESTED', reason: 'DUMP_REQUESTED' }
  const name = SIGNALS[r.code]
  if (!name) return { name: `unknown ${hex8(r.code)}`, reason: `unknown ${hex8(r.code)} / ${hex8(r.flags)}` }
  const siCode = r.flags | 0
  const detail = KINDS[name]?.[siCode] || SI_CODES[siCode] || (siCode === 0 ? null : hex8(r.flags))
  return { name, reason: detail ? `${name} / ${detail}` : name }
}
