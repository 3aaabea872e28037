ALTER TABLE `report_occurrences` ADD `runtime` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `runtime_version` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `browser` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `browser_version` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `environment` text DEFAULT '' NOT NULL;