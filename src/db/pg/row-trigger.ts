/**
 * SQL that drops trigger `name` on `table` only while it fires per row: a module part then makes it a
 * statement trigger with CREATE OR REPLACE, run at every start, without DROP TRIGGER's exclusive lock
 * on the table each time (nodes already serving would wait on it).
 */
export const dropIfPerRow = (name: string, table: string) => `DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '${name}' AND tgrelid = '${table}'::regclass AND tgtype & 1 = 1) THEN
    DROP TRIGGER ${name} ON ${table};
  END IF;
END $$`
