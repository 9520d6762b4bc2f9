-- The canonical calls table over a Google Analytics for Firebase export (BigQuery), from the
-- `places_call` events of docs/instrumentation.md. Replace `my-project.analytics_123456` with
-- your export's dataset, then: placescost sql --dialect bigquery --table my-project.placescost.calls
-- The typed text is never exported: `input_length` (code points) is what the SQL counts.
CREATE OR REPLACE VIEW `my-project.placescost.calls` AS
SELECT
  TIMESTAMP_MICROS(event_timestamp) AS `timestamp`,
  (SELECT value.string_value FROM UNNEST(event_params) WHERE key = 'api') AS api,
  (SELECT value.string_value FROM UNNEST(event_params) WHERE key = 'session_token') AS session_token,
  CAST(NULL AS STRING) AS input,
  (SELECT value.int_value FROM UNNEST(event_params) WHERE key = 'input_length') AS input_length,
  CAST(NULL AS STRING) AS place_id,
  IFNULL(SPLIT(NULLIF((SELECT value.string_value FROM UNNEST(event_params) WHERE key = 'fields'), ''), ','), []) AS fields,
  user_pseudo_id AS user_id,
  app_info.id AS project
FROM `my-project.analytics_123456.events_*`
WHERE event_name = 'places_call';
