-- Players who filed reports but never started a session get a player row (session_count 0), as the
-- analytics rollup now gives them for new reports.
INSERT INTO `players` (`project_id`, `player_id`, `name`, `first_seen`, `last_seen`, `session_count`)
SELECT `project_id`, `player_id`, NULL, min(`created_at`), max(`created_at`), 0
FROM `reports`
WHERE `player_id` IS NOT NULL AND `player_id` != '' AND `deleted_at` IS NULL
GROUP BY `project_id`, `player_id`
ON CONFLICT (`project_id`, `player_id`) DO UPDATE SET
  `first_seen` = min(`players`.`first_seen`, excluded.`first_seen`),
  `last_seen` = max(`players`.`last_seen`, excluded.`last_seen`);
