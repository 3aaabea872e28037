/**
 * The report list's filter parameters, in the order the dashboard writes them into a list URL (a
 * stable order keeps shared links identical). Saved filters and views hold these and `sort`. Plain
 * data without zod: the dashboard imports it too.
 */
export const LIST_FILTER_KEYS = [
  'status',
  'priority',
  'category',
  'assigned_to',
  'label',
  'source',
  'error_type',
  'q',
  'version',
  'platform',
  'runtime',
  'browser',
  'environment',
  'player',
  'fingerprint',
  'regression',
  'has_screenshot',
  'blocked',
  'overdue',
  'sla',
  'custom_field',
] as const
