DROP INDEX `reports_grouping_idx`;--> statement-breakpoint
CREATE INDEX `reports_live_fingerprint_idx` ON `reports` (`project_id`,`fingerprint`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_regressed_idx` ON `reports` (`project_id`,`seq`) WHERE deleted_at IS NULL AND regressed_in_version IS NOT NULL;