// The PostgreSQL form of open-title-terms.ts: the index `possible_duplicates` looks in, one row per word
// of the title of every open report, kept in step with every insert, update and delete of a report.
export const openTitleTermsPgSql = [
  `CREATE TABLE IF NOT EXISTS open_title_terms (
    project_id text NOT NULL,
    term text NOT NULL,
    neg_seq integer NOT NULL,
    report_number integer NOT NULL,
    n_terms integer NOT NULL,
    PRIMARY KEY (project_id, term, neg_seq)
  )`,
  `CREATE OR REPLACE FUNCTION open_title_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      DELETE FROM open_title_terms WHERE project_id = old.project_id AND neg_seq = -old.seq
        AND term IN (SELECT jsonb_array_elements_text(old.title_terms::jsonb));
    END IF;
    IF TG_OP <> 'DELETE' AND new.deleted_at IS NULL AND new.status IN ('open', 'in_progress') THEN
      INSERT INTO open_title_terms (project_id, term, neg_seq, report_number, n_terms)
        SELECT new.project_id, t.term, -new.seq, new.report_number, jsonb_array_length(new.title_terms::jsonb)
        FROM jsonb_array_elements_text(new.title_terms::jsonb) AS t(term)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END $$`,
  // A new open report's words are in the index.
  `CREATE OR REPLACE TRIGGER open_title_terms_ai AFTER INSERT ON reports FOR EACH ROW WHEN (new.title_terms IS NOT NULL) EXECUTE FUNCTION open_title_terms_sync()`,
  // A report whose words, status, deletion, project or number change has its old entries replaced by its new ones (none once closed).
  `CREATE OR REPLACE TRIGGER open_title_terms_au AFTER UPDATE OF title_terms, status, deleted_at, project_id, report_number ON reports
    FOR EACH ROW EXECUTE FUNCTION open_title_terms_sync()`,
  // A removed report leaves the index.
  `CREATE OR REPLACE TRIGGER open_title_terms_ad AFTER DELETE ON reports FOR EACH ROW EXECUTE FUNCTION open_title_terms_sync()`,
]
