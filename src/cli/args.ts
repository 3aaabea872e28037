export interface ParsedArgs {
  command: string
  positional: string[]
  flags: Record<string, string>
}

/** `glitchbox <command> [args] [--flag value | --flag=value | --switch]`; no command means `serve`. */
export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = []
  const flags: Record<string, string> = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1)
      else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) flags[a.slice(2)] = argv[++i]!
      else flags[a.slice(2)] = 'true'
    } else if (a === '-h') flags.help = 'true'
    else if (a === '-v') flags.version = 'true'
    else positional.push(a)
  }
  // `--version` and `-v` as most tools take them: without a command, they would start the server.
  const command = positional.shift() ?? (flags.help ? 'help' : flags.version ? 'version' : 'serve')
  return { command, positional, flags }
}
