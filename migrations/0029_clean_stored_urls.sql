-- Links stored before every URL had to be http(s) (src/net/web-url.ts) are returned by the API and
-- rendered as links: a `javascript:` or `data:` value runs in the page of whoever clicks it. Each
-- column that holds such a link loses a value that is not http(s) (LIKE ignores ASCII case, as the
-- rule does); the row stays (a linked issue keeps its number and title, as a provider's bad link is
-- kept today). Empty values mean "none" and stay.
UPDATE `projects` SET `website_url` = '' WHERE `website_url` <> '' AND `website_url` NOT LIKE 'http://_%' AND `website_url` NOT LIKE 'https://_%';--> statement-breakpoint
UPDATE `projects` SET `logo_url` = '' WHERE `logo_url` <> '' AND `logo_url` NOT LIKE 'http://_%' AND `logo_url` NOT LIKE 'https://_%';--> statement-breakpoint
UPDATE `users` SET `avatar_url` = NULL WHERE `avatar_url` <> '' AND `avatar_url` NOT LIKE 'http://_%' AND `avatar_url` NOT LIKE 'https://_%';--> statement-breakpoint
UPDATE `git_issue_links` SET `issue_url` = '' WHERE `issue_url` <> '' AND `issue_url` NOT LIKE 'http://_%' AND `issue_url` NOT LIKE 'https://_%';--> statement-breakpoint
UPDATE `integration_links` SET `url` = '' WHERE `url` <> '' AND `url` NOT LIKE 'http://_%' AND `url` NOT LIKE 'https://_%';--> statement-breakpoint
UPDATE `report_imports` SET `external_url` = NULL WHERE `external_url` <> '' AND `external_url` NOT LIKE 'http://_%' AND `external_url` NOT LIKE 'https://_%';--> statement-breakpoint
UPDATE `project_settings` SET `value` = json_set(`value`, '$.logo_url', '') WHERE `kind` IN ('tracker', 'branding') AND json_valid(`value`) AND json_type(`value`, '$.logo_url') = 'text' AND json_extract(`value`, '$.logo_url') <> '' AND json_extract(`value`, '$.logo_url') NOT LIKE 'http://_%' AND json_extract(`value`, '$.logo_url') NOT LIKE 'https://_%';--> statement-breakpoint
UPDATE `project_settings` SET `value` = json_set(`value`, '$.background_image_url', '') WHERE `kind` = 'widget' AND json_valid(`value`) AND json_type(`value`, '$.background_image_url') = 'text' AND json_extract(`value`, '$.background_image_url') <> '' AND json_extract(`value`, '$.background_image_url') NOT LIKE 'http://_%' AND json_extract(`value`, '$.background_image_url') NOT LIKE 'https://_%';
