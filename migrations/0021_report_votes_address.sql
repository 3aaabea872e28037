ALTER TABLE `report_votes` ADD `address_key` text;--> statement-breakpoint
CREATE INDEX `report_votes_address_idx` ON `report_votes` (`report_seq`,`address_key`,`created_at`);