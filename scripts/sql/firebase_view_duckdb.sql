-- The same view in DuckDB, over a table `events` of the export's shape (event_timestamp in
-- microseconds, event_params a list of {key, value: {string_value, int_value}}), for
-- placescost sql --dialect duckdb. scripts/sql/check_firebase_view.py runs it on a generated export.
CREATE OR REPLACE VIEW calls AS
SELECT
  make_timestamptz(event_timestamp) AS "timestamp",
  list_filter(event_params, lambda p: p.key = 'api')[1].value.string_value AS api,
  list_filter(event_params, lambda p: p.key = 'session_token')[1].value.string_value AS session_token,
  CAST(NULL AS VARCHAR) AS input,
  list_filter(event_params, lambda p: p.key = 'input_length')[1].value.int_value AS input_length,
  CAST(NULL AS VARCHAR) AS place_id,
  coalesce(string_split(nullif(list_filter(event_params, lambda p: p.key = 'fields')[1].value.string_value, ''), ','), []) AS fields,
  user_pseudo_id AS user_id,
  app_info.id AS project,
  event_index
FROM events
WHERE event_name = 'places_call';
