/** A user-facing failure: printed without a stack, exit code 1. */
export class CliError extends Error {}
