// The analytics_crash_group_version_players table (crash-group-players.ts, and its PostgreSQL form
// crash-group-players.pg.ts): a player counted once per crash group and version, gone with the group.
import { expect, it } from 'vitest'
import { onBothEngines } from '../../helpers/raw-engines'

onBothEngines('crash group version players', (e) => {
  it('takes each player of a group and version once and lets the group take its rows when deleted', async () => {
    for (const [id, fingerprint] of [[1, 'f1'], [2, 'f2']] as const) {
      await e.run(`INSERT INTO analytics_crash_groups (id, project_id, fingerprint, error_type, frame, sample_title, sample_report_number, first_seen, last_seen)
        VALUES (${id}, 'p1', '${fingerprint}', 'NullReference', 'main', 'Crash', 1, 0, 0)`)
    }
    for (const [group, version, player] of [[1, '1.0', 'alice'], [1, '1.0', 'alice'], [1, '1.1', 'alice'], [2, '1.0', 'bob']] as const) {
      await e.run(`INSERT INTO analytics_crash_group_version_players (group_id, game_version, player_id) VALUES (${group}, '${version}', '${player}') ON CONFLICT DO NOTHING`)
    }
    expect(await e.rows('SELECT group_id, game_version, player_id FROM analytics_crash_group_version_players ORDER BY group_id, game_version')).toEqual([
      { group_id: 1, game_version: '1.0', player_id: 'alice' },
      { group_id: 1, game_version: '1.1', player_id: 'alice' },
      { group_id: 2, game_version: '1.0', player_id: 'bob' },
    ])
    await e.run('DELETE FROM analytics_crash_groups WHERE id = 1')
    expect(await e.rows('SELECT group_id, game_version, player_id FROM analytics_crash_group_version_players')).toEqual([{ group_id: 2, game_version: '1.0', player_id: 'bob' }])
  })
})
