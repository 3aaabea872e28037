/** The parts of MINIDUMP_EXCEPTION that name a crash. */
export interface ExceptionRecord {
  code: number
  flags: number
  /** exception_information, as many as number_parameters says (at most 15). */
  parameters: bigint[]
}

export interface NamedException {
  name: string
  reason: string
}
