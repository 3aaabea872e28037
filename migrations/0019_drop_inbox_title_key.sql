-- Reports a previous version answered from its SDK inbox and had not filed yet are filed now, with
-- the id, number and time they were answered with (their fingerprints and title words are filled in
-- at start-up, see src/db/post-migrate.ts).
INSERT INTO `reports` (`id`, `project_id`, `report_number`, `title`, `description`, `priority`, `priority_rank`, `category`, `platform`, `game_version`, `os_info`, `device_info`, `steps_to_reproduce`, `expected_behavior`, `actual_behavior`, `source`, `title_key`, `reporter_name`, `reporter_email`, `player_id`, `metadata`, `screenshot_key`, `sentiment_score`, `sentiment_level`, `occurrence_count`, `player_count`, `first_seen`, `last_seen`, `first_version`, `last_version`, `versions`, `created_at`, `updated_at`)
SELECT i.`id`, i.`project_id`, i.`report_number`, json_extract(i.`input`, '$.title'), json_extract(i.`input`, '$.description'),
  coalesce(json_extract(i.`input`, '$.priority'), 'medium'),
  CASE coalesce(json_extract(i.`input`, '$.priority'), 'medium') WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END,
  coalesce(json_extract(i.`input`, '$.category'), 'other'), coalesce(json_extract(i.`input`, '$.platform'), ''), coalesce(json_extract(i.`input`, '$.gameVersion'), ''), coalesce(json_extract(i.`input`, '$.osInfo'), ''), coalesce(json_extract(i.`input`, '$.deviceInfo'), ''),
  coalesce(json_extract(i.`input`, '$.stepsToReproduce'), ''), coalesce(json_extract(i.`input`, '$.expectedBehavior'), ''), coalesce(json_extract(i.`input`, '$.actualBehavior'), ''), coalesce(json_extract(i.`input`, '$.source'), 'user'), i.`title_key`,
  json_extract(i.`input`, '$.reporterName'), json_extract(i.`input`, '$.reporterEmail'), json_extract(i.`input`, '$.playerId'),
  CASE WHEN json_type(i.`input`, '$.metadata') IS NULL OR json_type(i.`input`, '$.metadata') = 'null' THEN NULL
       WHEN json_type(i.`input`, '$.metadata') IN ('object', 'array') THEN json_extract(i.`input`, '$.metadata') ELSE json_quote(json_extract(i.`input`, '$.metadata')) END,
  json_extract(i.`input`, '$.screenshotKey'), json_extract(i.`input`, '$.sentimentScore'), json_extract(i.`input`, '$.sentimentLevel'),
  1, CASE WHEN json_extract(i.`input`, '$.playerId') IS NULL THEN 0 ELSE 1 END, i.`created_at`, i.`created_at`, coalesce(json_extract(i.`input`, '$.gameVersion'), ''), coalesce(json_extract(i.`input`, '$.gameVersion'), ''),
  CASE WHEN coalesce(json_extract(i.`input`, '$.gameVersion'), '') = '' THEN '[]' ELSE json_array(json_extract(i.`input`, '$.gameVersion')) END, i.`created_at`, i.`created_at`
FROM `report_inbox` i WHERE EXISTS (SELECT 1 FROM `projects` p WHERE p.`id` = i.`project_id`) ORDER BY i.`seq`;--> statement-breakpoint
INSERT INTO `report_occurrences` (`id`, `report_id`, `project_id`, `title`, `description`, `steps_to_reproduce`, `expected_behavior`, `actual_behavior`, `source`, `device_info`, `os_info`, `platform`, `game_version`, `player_id`, `reporter_name`, `reporter_email`, `metadata`, `screenshot_key`, `created_at`)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-7' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(6))),
  r.`id`, r.`project_id`, r.`title`, r.`description`, r.`steps_to_reproduce`, r.`expected_behavior`, r.`actual_behavior`, r.`source`, r.`device_info`, r.`os_info`, r.`platform`, r.`game_version`,
  r.`player_id`, r.`reporter_name`, r.`reporter_email`, r.`metadata`, r.`screenshot_key`, r.`created_at`
FROM `report_inbox` i JOIN `reports` r ON r.`id` = i.`id` ORDER BY i.`seq`;--> statement-breakpoint
INSERT INTO `activity` (`project_id`, `report_id`, `action`, `created_at`) SELECT i.`project_id`, i.`id`, 'created', i.`created_at` FROM `report_inbox` i JOIN `reports` r ON r.`id` = i.`id` ORDER BY i.`seq`;--> statement-breakpoint
DROP TABLE `report_inbox`;--> statement-breakpoint
DROP INDEX `reports_project_title_key_idx`;--> statement-breakpoint
ALTER TABLE `reports` DROP COLUMN `title_key`;