CREATE TABLE "occurrence_tags" (
	"occurrence_id" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "occurrence_tags_occurrence_id_key_pk" PRIMARY KEY("occurrence_id","key")
);
--> statement-breakpoint
ALTER TABLE "occurrence_tags" ADD CONSTRAINT "occurrence_tags_occurrence_id_report_occurrences_id_fk" FOREIGN KEY ("occurrence_id") REFERENCES "public"."report_occurrences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_occurrences_report_time_idx" ON "report_occurrences" USING btree ("report_id","created_at");--> statement-breakpoint
CREATE INDEX "report_occurrences_project_time_idx" ON "report_occurrences" USING btree ("project_id","created_at","report_id");