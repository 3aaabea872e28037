import { describe, expect, it } from 'vitest'
import { missingSymbolsOf, symFileOf, uploadCommand } from './missing-symbols'

describe('missing symbols on the report page', () => {
  it('reads the modules a crash lists, skipping anything malformed', () => {
    const good = { module: 'game.exe', debug_id: '5A9832E5287241C1838ED98914E9B7FF1', debug_file: 'c:\\build\\game.pdb' }
    expect(missingSymbolsOf({ minidump: { missing_symbols: [good, { module: 3 }, null, 'x'] } })).toEqual([good])
    expect(missingSymbolsOf({ minidump: { missing_symbols: 'all of them' } })).toEqual([])
    expect(missingSymbolsOf(null)).toEqual([])
  })

  it('names the .sym file dump_syms writes for a module', () => {
    expect(symFileOf({ module: 'game.exe', debug_id: 'A', debug_file: 'c:\\build\\game.pdb' })).toBe('game.sym')
    expect(symFileOf({ module: 'libgame.so', debug_id: 'B', debug_file: '/opt/game/libgame.so' })).toBe('libgame.so.sym')
    expect(symFileOf({ module: 'Game', debug_id: 'C', debug_file: null })).toBe('Game.sym')
  })

  it('gives one upload command for the project, naming each file once', () => {
    const missing = [
      { module: 'game.exe', debug_id: 'A', debug_file: 'game.pdb' },
      { module: 'kernel32.dll', debug_id: 'B', debug_file: 'kernel32.pdb' },
    ]
    expect(uploadCommand('moon-rally', missing, 'https://bugs.example.com').split('\n')).toEqual([
      'export SENTRY_URL=https://bugs.example.com',
      'export SENTRY_AUTH_TOKEN=glb_…   # Your account → API tokens, scope debug_files.upload',
      'sentry-cli debug-files upload --org any --project moon-rally <folder with game.sym, kernel32.sym>',
    ])
  })
})
