#!/usr/bin/env bun
// Entry point of the `glitchbox` binary: parse the command line and run one command.
import './docs/embed-assets'
import { parseArgs } from './cli/args'
import { CliError } from './cli/cli-error'
import { runCommand } from './cli/commands'
import { DataDirError } from './db/data-dir'
import { SchemaTooNewError } from './db/migrate'

try {
  await runCommand(parseArgs(process.argv.slice(2)), process.env)
} catch (err) {
  if (err instanceof CliError || err instanceof SchemaTooNewError || err instanceof DataDirError) {
    console.error(`glitchbox: ${err.message}`)
    process.exit(1)
  }
  throw err
}
