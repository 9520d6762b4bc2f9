-- Loads a canonical JSON Lines log (docs/formats.md section 1) into the DuckDB table `calls` that
-- `placescost sql --dialect duckdb` reads. Replace 'log.jsonl' with the log's path.
-- The table keeps the log's order (DuckDB keeps insertion order), which the SQL uses for calls
-- at the same time. `timestamp` stays text: the SQL reads RFC 3339 with any offset and epoch
-- milliseconds as `analyze` does. `input_length` stays text too, as a number or a string of
-- digits, NULL when absent (a log with `input` only). The camelCase aliases sessionToken,
-- inputLength and placeId are folded in; other keys (platform, status, ...) are ignored.
CREATE TABLE calls AS
SELECT
  "timestamp",
  api,
  COALESCE(NULLIF(session_token, ''), "sessionToken") AS session_token,
  input,
  COALESCE(NULLIF(input_length, ''), "inputLength") AS input_length,
  COALESCE(place_id, "placeId") AS place_id,
  fields,
  user_id,
  project
FROM read_json('log.jsonl', format = 'newline_delimited', columns = {
  "timestamp": 'VARCHAR', api: 'VARCHAR', session_token: 'VARCHAR', sessionToken: 'VARCHAR',
  input: 'VARCHAR', input_length: 'VARCHAR', inputLength: 'VARCHAR', place_id: 'VARCHAR',
  placeId: 'VARCHAR', fields: 'VARCHAR[]', user_id: 'VARCHAR', project: 'VARCHAR'
});
