CREATE TABLE "schedule_ticks" (
	"name" text PRIMARY KEY NOT NULL,
	"tick" bigint NOT NULL,
	"owner" text NOT NULL
);
