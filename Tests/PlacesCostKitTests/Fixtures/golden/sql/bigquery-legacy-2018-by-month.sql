-- placescost 0.1.0: the analysis of `placescost analyze` as one BigQuery (GoogleSQL) statement.
-- Reads `calls`: one row per call with the canonical columns timestamp, api,
--   session_token, input, fields (a list of strings), user_id and project (the last two may be all NULL).
-- Rules of sessions.md: session timeout 180 s from the session's start, user gap 60 s,
--   delays 1,2,3,4,5,6 (characters counted in Unicode code points).
-- Prices of `legacy-2018` (legacy API: an abandoned session is one per-session charge), inlined below.
-- A BigQuery table has no row order: calls of one token or user at the same microsecond are taken
--   autocomplete first, then by api, input length and fields (--order-column gives the log's order).
-- Returns one row per calendar month (UTC): month (YYYY-MM) and cost_<strategy>_d<delay>,
--   the bill after free caps, tiers and credit (costs.csv's cost_usd), USD rounded to 1e-6.
WITH
-- The calls as the engine reads them: time in microseconds since the epoch (UTC), api names and
-- their aliases in any case mapped to the canonical name (unknown names: 'other', no part in
-- sessions), empty strings as absent, the input's length in code points: the text's, else the
-- recorded input_length (a privacy-first log has only that; NULL: no input).
calls_read AS (
  SELECT
    UNIX_MICROS(`timestamp`) AS ts_us,
    CASE lower(CAST(`api` AS STRING))
      WHEN 'autocomplete' THEN 'autocomplete'
      WHEN 'findautocompletepredictions' THEN 'autocomplete'
      WHEN 'autocompleteplaces' THEN 'autocomplete'
      WHEN 'query_autocomplete' THEN 'query_autocomplete'
      WHEN 'place_details' THEN 'place_details'
      WHEN 'fetchplace' THEN 'place_details'
      WHEN 'getplace' THEN 'place_details'
      WHEN 'geocoding' THEN 'geocoding'
      WHEN 'geocode' THEN 'geocoding'
      WHEN 'find_place' THEN 'find_place'
      WHEN 'text_search' THEN 'text_search'
      WHEN 'address_validation' THEN 'address_validation'
      ELSE 'other'
    END AS api,
    NULLIF(CAST(`session_token` AS STRING), '') AS token,
    COALESCE(
      CHAR_LENGTH(CAST(`input` AS STRING)),
      CAST(NULLIF(CAST(`input_length` AS STRING), '') AS INT64)
    ) AS input_len,
    NULLIF(CAST(`user_id` AS STRING), '') AS user_id,
    NULLIF(CAST(`project` AS STRING), '') AS project,
    `fields` AS fields
  FROM `calls`
  WHERE `timestamp` IS NOT NULL AND `api` IS NOT NULL AND CAST(`api` AS STRING) <> ''
),
-- The named fields of each distinct field mask of place_details calls (a log holds a few dozen
-- masks): names trimmed of spaces and tabs, blank names dropped. A name is looked up without case
-- or underscores, a path (geometry/location) by its first part, with `places.` dropped (FieldCatalog).
mask_fields AS (
  SELECT
    mask_key, name,
    REPLACE(REGEXP_REPLACE(REGEXP_REPLACE(LOWER(name), '(?s)/.*', ''), '^places[.]', ''), '_', '') AS field
  FROM (
    SELECT d.mask_key, TRIM(f, ' ' || CHR(9)) AS name
    FROM (
      SELECT TO_JSON_STRING(fields) AS mask_key, ANY_VALUE(fields) AS fields
      FROM calls_read WHERE api = 'place_details' AND fields IS NOT NULL
      GROUP BY 1
    ) AS d
    CROSS JOIN UNNEST(d.fields) AS f
  ) AS trimmed
  WHERE name <> ''
),
-- What each mask bills: the legacy data SKUs as bits 1 Basic, 2 Contact, 4 Atmosphere (all with `*`;
-- an unknown name bills as Basic).
masks AS (
  SELECT
    mask_key,
    CASE WHEN MAX(CASE WHEN name = '*' THEN 1 ELSE 0 END) = 1 THEN 7
      ELSE BIT_OR(
        CASE
          WHEN field IN ('accessibilityoptions', 'addresscomponent', 'addresscomponents',
              'addressdescriptor', 'adraddress', 'adrformataddress', 'attributions', 'businessstatus',
              'containingplaces', 'coordinate', 'displayname', 'formattedaddress', 'geometry',
              'googlemapslinks', 'googlemapsuri', 'icon', 'iconbackgroundcolor', 'iconmaskbaseuri', 'id',
              'location', 'movedplace', 'movedplaceid', 'name', 'permanentlyclosed', 'photo', 'photos',
              'placeid', 'pluscode', 'postaladdress', 'primarytype', 'primarytypedisplayname',
              'pureserviceareabusiness', 'shortformattedaddress', 'subdestinations', 'timezone', 'type',
              'types', 'url', 'utcoffset', 'utcoffsetminutes', 'vicinity', 'viewport',
              'wheelchairaccessibleentrance') THEN 1
          WHEN field IN ('currentopeninghours', 'currentsecondaryopeninghours', 'formattedphonenumber',
              'internationalphonenumber', 'nationalphonenumber', 'openinghours', 'phonenumber',
              'regularopeninghours', 'regularsecondaryopeninghours', 'secondaryopeninghours', 'website',
              'websiteuri') THEN 2
          WHEN field IN ('curbsidepickup', 'delivery', 'dinein', 'editorialsummary', 'evchargeoptions',
              'fueloptions', 'generativesummary', 'livemusic', 'menuforchildren', 'outdoorseating',
              'parkingoptions', 'paymentoptions', 'pricelevel', 'pricerange', 'rating', 'reservable',
              'restroom', 'review', 'reviews', 'reviewsummary', 'takeout', 'userratingcount',
              'userratingstotal') THEN 4
          WHEN starts_with(field, 'serves') OR starts_with(field, 'allows') OR starts_with(field, 'goodfor') THEN 4
          ELSE 1
        END
      ) END AS mask_sku
  FROM mask_fields
  GROUP BY mask_key
),
-- Each call with its mask; a call with no field mask (NULL, empty, only blank names) has
-- has_mask = 0 and bills every field.
calls_masked AS (
  SELECT
    c.*,
    CASE WHEN m.mask_key IS NULL THEN 0 ELSE 1 END AS has_mask,
    COALESCE(m.mask_sku, 7) AS mask_sku
  FROM calls_read AS c
  LEFT JOIN masks AS m ON c.api = 'place_details' AND TO_JSON_STRING(c.fields) = m.mask_key
),
-- Token walk, sessions.md rules 1-5. The calls with a token that take part in sessions
-- (autocomplete, place_details, address_validation), grouped by (project, token) and numbered in
-- time order; start_us is the first call's time, the session's start when it is an autocomplete call.
token_calls AS (
  SELECT
    c.*,
    ROW_NUMBER() OVER w AS step,
    FIRST_VALUE(api) OVER w AS first_api,
    FIRST_VALUE(ts_us) OVER w AS start_us
  FROM calls_masked AS c
  WHERE token IS NOT NULL AND api IN ('autocomplete', 'place_details', 'address_validation')
  WINDOW w AS (PARTITION BY project, token ORDER BY ts_us, CASE WHEN api = 'autocomplete' THEN 0 ELSE 1 END, api, input_len, ARRAY_TO_STRING(fields, CHR(31)))
),
-- Where the session ends: the first call after the opening autocomplete call that does not join
-- it, i.e. a details call (rule 3: it completes the session) or any call more than the timeout
-- after the start (rule 2: the session expired).
token_ends AS (
  SELECT
    t.*,
    MIN(CASE WHEN first_api = 'autocomplete' AND step > 1
             AND (api <> 'autocomplete' OR ts_us - start_us > 180000000) THEN step END)
      OVER (PARTITION BY project, token) AS end_step
  FROM token_calls AS t
),
-- Each call's part: 'session' (the opener and the calls that join it), 'selection' (the details
-- call that completes it), 'orphan' (a details call on a fresh token, rule 4: a standalone details
-- call that spends the token) or 'spent' (every call after the token was spent: completed, used
-- by a details call, or expired, the call that revealed the expiry included).
token_roles AS (
  SELECT
    e.*,
    CASE
      WHEN first_api <> 'autocomplete' AND step = 1 THEN 'orphan'
      WHEN first_api = 'autocomplete' AND (end_step IS NULL OR step < end_step) THEN 'session'
      WHEN step = end_step AND ts_us - start_us <= 180000000 THEN 'selection'
      ELSE 'spent'
    END AS role
  FROM token_ends AS e
),
-- Calls after the token was spent form runs, each up to and including a details call: run counts
-- the spent details calls before the call.
token_runs AS (
  SELECT
    r.*,
    COALESCE(SUM(CASE WHEN role = 'spent' AND api <> 'autocomplete' THEN 1 ELSE 0 END) OVER (
      PARTITION BY project, token ORDER BY step ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS run
  FROM token_roles AS r
),
-- One session per token opened by an autocomplete call: completed by its selection, else
-- expired (closed by the timeout) or abandoned (still open at the end of the token's calls).
sessions AS (
  SELECT
    MIN(start_us) AS start_us,
    SUM(CASE WHEN role = 'session' THEN 1 ELSE 0 END) AS requests,
    SUM(CASE WHEN role = 'session' AND (input_len IS NULL OR input_len > 1) THEN 1 ELSE 0 END) AS kept_1,
    SUM(CASE WHEN role = 'session' AND (input_len IS NULL OR input_len > 2) THEN 1 ELSE 0 END) AS kept_2,
    SUM(CASE WHEN role = 'session' AND (input_len IS NULL OR input_len > 3) THEN 1 ELSE 0 END) AS kept_3,
    SUM(CASE WHEN role = 'session' AND (input_len IS NULL OR input_len > 4) THEN 1 ELSE 0 END) AS kept_4,
    SUM(CASE WHEN role = 'session' AND (input_len IS NULL OR input_len > 5) THEN 1 ELSE 0 END) AS kept_5,
    SUM(CASE WHEN role = 'session' AND (input_len IS NULL OR input_len > 6) THEN 1 ELSE 0 END) AS kept_6,
    MAX(CASE WHEN role = 'selection' THEN 1 ELSE 0 END) AS completed,
    MAX(CASE WHEN role = 'spent' AND step = end_step THEN 1 ELSE 0 END) AS expired,
    MAX(CASE WHEN role = 'selection' THEN api END) AS selection_api,
    MAX(CASE WHEN role = 'selection' THEN mask_sku END) AS selection_sku
  FROM token_runs
  WHERE first_api = 'autocomplete'
  GROUP BY project, token
),
-- The runs after the token was spent: a run with an autocomplete call is a search billed as
-- without a token (completed when a details call ends it); a run of one details call is a
-- standalone details call.
spent_runs AS (
  SELECT
    MIN(CASE WHEN api = 'autocomplete' THEN ts_us END) AS start_us,
    MAX(CASE WHEN api <> 'autocomplete' THEN ts_us END) AS selection_us,
    SUM(CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END) AS requests,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 1) THEN 1 ELSE 0 END) AS kept_1,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 2) THEN 1 ELSE 0 END) AS kept_2,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 3) THEN 1 ELSE 0 END) AS kept_3,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 4) THEN 1 ELSE 0 END) AS kept_4,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 5) THEN 1 ELSE 0 END) AS kept_5,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 6) THEN 1 ELSE 0 END) AS kept_6,
    MAX(CASE WHEN api <> 'autocomplete' THEN 1 ELSE 0 END) AS completed,
    MAX(CASE WHEN api <> 'autocomplete' THEN api END) AS selection_api,
    MAX(CASE WHEN api <> 'autocomplete' THEN mask_sku END) AS selection_sku
  FROM token_runs
  WHERE role = 'spent'
  GROUP BY project, token, run
),
-- User walk (sessions.md, token-less calls): autocomplete, place_details and geocoding calls
-- without a token but with a user id, by (project, user_id) in time order. A call continues the
-- open search when the call before it is an autocomplete call at most the gap (60 s) earlier:
-- an autocomplete call joins it, a details or geocoding call completes it.
user_calls AS (
  SELECT
    c.*,
    ROW_NUMBER() OVER w AS step,
    CASE WHEN LAG(api) OVER w = 'autocomplete' AND ts_us - LAG(ts_us) OVER w <= 60000000
         THEN 1 ELSE 0 END AS continues
  FROM calls_masked AS c
  WHERE token IS NULL AND user_id IS NOT NULL AND api IN ('autocomplete', 'place_details', 'geocoding')
  WINDOW w AS (PARTITION BY project, user_id ORDER BY ts_us, CASE WHEN api = 'autocomplete' THEN 0 ELSE 1 END, api, input_len, ARRAY_TO_STRING(fields, CHR(31)))
),
-- An autocomplete call that does not continue a search starts one: search numbers them.
user_searches AS (
  SELECT
    u.*,
    SUM(CASE WHEN api = 'autocomplete' AND continues = 0 THEN 1 ELSE 0 END) OVER (
      PARTITION BY project, user_id ORDER BY step ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS search
  FROM user_calls AS u
),
-- The inferred searches: their autocomplete calls and the call that completed them.
inferred AS (
  SELECT
    MIN(CASE WHEN api = 'autocomplete' THEN ts_us END) AS start_us,
    SUM(CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END) AS requests,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 1) THEN 1 ELSE 0 END) AS kept_1,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 2) THEN 1 ELSE 0 END) AS kept_2,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 3) THEN 1 ELSE 0 END) AS kept_3,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 4) THEN 1 ELSE 0 END) AS kept_4,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 5) THEN 1 ELSE 0 END) AS kept_5,
    SUM(CASE WHEN api = 'autocomplete' AND (input_len IS NULL OR input_len > 6) THEN 1 ELSE 0 END) AS kept_6,
    MAX(CASE WHEN api <> 'autocomplete' THEN 1 ELSE 0 END) AS completed,
    MAX(CASE WHEN api <> 'autocomplete' THEN api END) AS selection_api,
    MAX(CASE WHEN api <> 'autocomplete' THEN mask_sku END) AS selection_sku
  FROM user_searches
  WHERE search > 0 AND (api = 'autocomplete' OR continues = 1)
  GROUP BY project, user_id, search
),
-- Every search: sessions, runs after a spent token that hold an autocomplete call, inferred searches.
search_rows AS (
  SELECT 'session' AS kind, start_us, requests, kept_1, kept_2, kept_3, kept_4, kept_5, kept_6, completed, expired, selection_api, selection_sku FROM sessions
  UNION ALL
  SELECT 'spent_token' AS kind, start_us, requests, kept_1, kept_2, kept_3, kept_4, kept_5, kept_6, completed, 0 AS expired, selection_api, selection_sku FROM spent_runs WHERE requests > 0
  UNION ALL
  SELECT 'inferred' AS kind, start_us, requests, kept_1, kept_2, kept_3, kept_4, kept_5, kept_6, completed, 0 AS expired, selection_api, selection_sku FROM inferred
),
-- n_<k>: the autocomplete calls billed at delay k; a completed search keeps at least one request
-- (the user types on until predictions appear), an abandoned one may keep none.
searches AS (
  SELECT
    kind, start_us, requests, completed, expired,
    COALESCE(selection_api, 'none') AS selection_api,
    COALESCE(selection_sku, 0) AS selection_sku,
    requests AS n_0,
    CASE WHEN completed = 1 AND kept_1 = 0 THEN 1 ELSE kept_1 END AS n_1,
    CASE WHEN completed = 1 AND kept_2 = 0 THEN 1 ELSE kept_2 END AS n_2,
    CASE WHEN completed = 1 AND kept_3 = 0 THEN 1 ELSE kept_3 END AS n_3,
    CASE WHEN completed = 1 AND kept_4 = 0 THEN 1 ELSE kept_4 END AS n_4,
    CASE WHEN completed = 1 AND kept_5 = 0 THEN 1 ELSE kept_5 END AS n_5,
    CASE WHEN completed = 1 AND kept_6 = 0 THEN 1 ELSE kept_6 END AS n_6
  FROM search_rows
),
-- Calls outside every search, priced alike in every strategy: calls in neither walk (no token
-- and no user id, or an api that takes no part), details calls on a fresh token, standalone
-- details calls after a spent token, and token-less details or geocoding calls no search took.
base_calls AS (
  SELECT ts_us, api, mask_sku FROM calls_masked
  WHERE NOT (token IS NOT NULL AND api IN ('autocomplete', 'place_details', 'address_validation'))
    AND NOT (token IS NULL AND user_id IS NOT NULL AND api IN ('autocomplete', 'place_details', 'geocoding'))
  UNION ALL
  SELECT ts_us, api, mask_sku FROM token_runs WHERE role = 'orphan'
  UNION ALL
  SELECT selection_us AS ts_us, selection_api AS api, selection_sku AS mask_sku FROM spent_runs WHERE requests = 0
  UNION ALL
  SELECT ts_us, api, mask_sku FROM user_searches WHERE api <> 'autocomplete' AND continues = 0
),
-- Searches that bill alike, counted once (the engine's SearchSummary does the same).
search_shapes AS (
  SELECT
    kind, completed, selection_api, selection_sku, n_0, n_1, n_2, n_3, n_4, n_5, n_6,
    FORMAT_TIMESTAMP('%Y-%m', TIMESTAMP_MICROS(start_us), 'UTC') AS month,
    COUNT(*) AS searches
  FROM searches
  GROUP BY kind, completed, selection_api, selection_sku, n_0, n_1, n_2, n_3, n_4, n_5, n_6, month
),
-- Every strategy at delay 0 and at each priced delay.
strategy_grid AS (
  SELECT 'current' AS strategy, 0 AS delay UNION ALL
  SELECT 'current' AS strategy, 1 AS delay UNION ALL
  SELECT 'current' AS strategy, 2 AS delay UNION ALL
  SELECT 'current' AS strategy, 3 AS delay UNION ALL
  SELECT 'current' AS strategy, 4 AS delay UNION ALL
  SELECT 'current' AS strategy, 5 AS delay UNION ALL
  SELECT 'current' AS strategy, 6 AS delay UNION ALL
  SELECT 'session_details' AS strategy, 0 AS delay UNION ALL
  SELECT 'session_details' AS strategy, 1 AS delay UNION ALL
  SELECT 'session_details' AS strategy, 2 AS delay UNION ALL
  SELECT 'session_details' AS strategy, 3 AS delay UNION ALL
  SELECT 'session_details' AS strategy, 4 AS delay UNION ALL
  SELECT 'session_details' AS strategy, 5 AS delay UNION ALL
  SELECT 'session_details' AS strategy, 6 AS delay UNION ALL
  SELECT 'session_details_basic' AS strategy, 0 AS delay UNION ALL
  SELECT 'session_details_basic' AS strategy, 1 AS delay UNION ALL
  SELECT 'session_details_basic' AS strategy, 2 AS delay UNION ALL
  SELECT 'session_details_basic' AS strategy, 3 AS delay UNION ALL
  SELECT 'session_details_basic' AS strategy, 4 AS delay UNION ALL
  SELECT 'session_details_basic' AS strategy, 5 AS delay UNION ALL
  SELECT 'session_details_basic' AS strategy, 6 AS delay UNION ALL
  SELECT 'per_request_geocoding' AS strategy, 0 AS delay UNION ALL
  SELECT 'per_request_geocoding' AS strategy, 1 AS delay UNION ALL
  SELECT 'per_request_geocoding' AS strategy, 2 AS delay UNION ALL
  SELECT 'per_request_geocoding' AS strategy, 3 AS delay UNION ALL
  SELECT 'per_request_geocoding' AS strategy, 4 AS delay UNION ALL
  SELECT 'per_request_geocoding' AS strategy, 5 AS delay UNION ALL
  SELECT 'per_request_geocoding' AS strategy, 6 AS delay
),
-- How each strategy bills a search (SearchPricer): n calls kept at the delay, and a plan:
-- per_request (every call a request; `current` for runs and inferred searches, and
-- per_request_geocoding), abandoned_session, completed_session, or session_elsewhere (`current`,
-- a session ended by a call no table prices: address_validation). selection: the call billed
-- after per-request calls; mask: the field mask its details call is billed with.
search_plans AS (
  SELECT
    g.strategy, g.delay, s.searches, s.month,
    CASE g.delay
      WHEN 0 THEN s.n_0
      WHEN 1 THEN s.n_1
      WHEN 2 THEN s.n_2
      WHEN 3 THEN s.n_3
      WHEN 4 THEN s.n_4
      WHEN 5 THEN s.n_5
      WHEN 6 THEN s.n_6
    END AS n,
    CASE
      WHEN g.strategy = 'per_request_geocoding' THEN 'per_request'
      WHEN g.strategy = 'current' AND s.kind <> 'session' THEN 'per_request'
      WHEN s.completed = 0 THEN 'abandoned_session'
      WHEN g.strategy = 'current' AND s.selection_api <> 'place_details' THEN 'session_elsewhere'
      ELSE 'completed_session'
    END AS plan,
    CASE
      WHEN s.completed = 0 THEN 'none'
      WHEN g.strategy = 'per_request_geocoding' THEN 'geocoding'
      ELSE s.selection_api
    END AS selection,
    CASE
      WHEN g.strategy = 'session_details_basic' THEN 1
      WHEN g.strategy = 'session_details' AND s.selection_api <> 'place_details' THEN 1
      ELSE s.selection_sku
    END AS mask
  FROM search_shapes AS s
  CROSS JOIN strategy_grid AS g
),
-- The billable events of the searches per strategy and delay, by billing role.
search_events AS (
  SELECT
    strategy, delay, month,
    SUM(searches * CASE WHEN plan = 'per_request' THEN n ELSE 0 END) AS autocomplete_request,
    SUM(searches * CASE WHEN plan IN ('completed_session', 'session_elsewhere') THEN 1 ELSE 0 END) AS autocomplete_session_with_details,
    SUM(searches * CASE WHEN plan = 'abandoned_session' AND n > 0 THEN 1 ELSE 0 END) AS autocomplete_session_without_details,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) THEN 1 ELSE 0 END) AS place_details,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND (mask & 1) <> 0 THEN 1 ELSE 0 END) AS data_basic,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND (mask & 2) <> 0 THEN 1 ELSE 0 END) AS data_contact,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND (mask & 4) <> 0 THEN 1 ELSE 0 END) AS data_atmosphere,
    SUM(searches * CASE WHEN plan = 'per_request' AND selection = 'geocoding' THEN 1 ELSE 0 END) AS geocoding
  FROM search_plans
  GROUP BY strategy, delay, month
),
-- The billable events of the base calls, the same in every strategy and delay, per month.
-- find_place, text_search, address_validation and unknown apis are not priced.
base_events AS (
  SELECT
    month,
    COALESCE(SUM(CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END), 0) AS autocomplete_request,
    COALESCE(SUM(CASE WHEN api = 'query_autocomplete' THEN 1 ELSE 0 END), 0) AS query_autocomplete_request,
    COALESCE(SUM(CASE WHEN api = 'place_details' THEN 1 ELSE 0 END), 0) AS place_details,
    COALESCE(SUM(CASE WHEN api = 'place_details' AND (mask_sku & 1) <> 0 THEN 1 ELSE 0 END), 0) AS data_basic,
    COALESCE(SUM(CASE WHEN api = 'place_details' AND (mask_sku & 2) <> 0 THEN 1 ELSE 0 END), 0) AS data_contact,
    COALESCE(SUM(CASE WHEN api = 'place_details' AND (mask_sku & 4) <> 0 THEN 1 ELSE 0 END), 0) AS data_atmosphere,
    COALESCE(SUM(CASE WHEN api = 'geocoding' THEN 1 ELSE 0 END), 0) AS geocoding
  FROM (SELECT api, mask_sku, FORMAT_TIMESTAMP('%Y-%m', TIMESTAMP_MICROS(ts_us), 'UTC') AS month FROM base_calls) AS b
  GROUP BY month
),
-- All events per strategy and delay and month (the months any search or base call falls in).
events AS (
  SELECT
    g.strategy, g.delay, m.month,
    COALESCE(e.autocomplete_request, 0) + COALESCE(b.autocomplete_request, 0) AS autocomplete_request,
    COALESCE(b.query_autocomplete_request, 0) AS query_autocomplete_request,
    COALESCE(e.autocomplete_session_with_details, 0) AS autocomplete_session_with_details,
    COALESCE(e.autocomplete_session_without_details, 0) AS autocomplete_session_without_details,
    COALESCE(e.place_details, 0) + COALESCE(b.place_details, 0) AS place_details,
    COALESCE(e.data_basic, 0) + COALESCE(b.data_basic, 0) AS data_basic,
    COALESCE(e.data_contact, 0) + COALESCE(b.data_contact, 0) AS data_contact,
    COALESCE(e.data_atmosphere, 0) + COALESCE(b.data_atmosphere, 0) AS data_atmosphere,
    COALESCE(e.geocoding, 0) + COALESCE(b.geocoding, 0) AS geocoding
  FROM strategy_grid AS g
  CROSS JOIN (SELECT month FROM search_shapes UNION DISTINCT SELECT month FROM base_events) AS m
  LEFT JOIN search_events AS e ON e.strategy = g.strategy AND e.delay = g.delay AND e.month = m.month
  LEFT JOIN base_events AS b ON b.month = m.month
),
-- cost_usd (sessions.md, From counts to money): per month, each SKU's volume after its free
-- monthly cap, priced through the graduated tiers of `legacy-2018` (USD per 1,000 events), less the monthly credit.
month_costs AS (
  SELECT
    month, strategy, delay,
    gross - LEAST(200.0, gross) AS cost_usd
  FROM (
    SELECT month, strategy, delay, (
          (LEAST(CAST(autocomplete_request AS FLOAT64), 100000) * 2.83 / 1000 + GREATEST(LEAST(CAST(autocomplete_request AS FLOAT64), 500000) - 100000, 0) * 2.27 / 1000 + GREATEST(CAST(autocomplete_request AS FLOAT64) - 500000, 0) * 2.27 / 1000)  -- Autocomplete - Per Request; above 500000 a month an estimate (contact sales)
        + (LEAST(CAST(query_autocomplete_request AS FLOAT64), 100000) * 2.83 / 1000 + GREATEST(LEAST(CAST(query_autocomplete_request AS FLOAT64), 500000) - 100000, 0) * 2.27 / 1000 + GREATEST(CAST(query_autocomplete_request AS FLOAT64) - 500000, 0) * 2.27 / 1000)  -- Query Autocomplete - Per Request; above 500000 a month an estimate (contact sales)
        + (LEAST(CAST(autocomplete_session_without_details AS FLOAT64), 100000) * 17.0 / 1000 + GREATEST(LEAST(CAST(autocomplete_session_without_details AS FLOAT64), 500000) - 100000, 0) * 13.6 / 1000 + GREATEST(CAST(autocomplete_session_without_details AS FLOAT64) - 500000, 0) * 13.6 / 1000)  -- Autocomplete without Places Details - Per Session; above 500000 a month an estimate (contact sales)
        + (LEAST(CAST(place_details AS FLOAT64), 100000) * 17.0 / 1000 + GREATEST(LEAST(CAST(place_details AS FLOAT64), 500000) - 100000, 0) * 13.6 / 1000 + GREATEST(CAST(place_details AS FLOAT64) - 500000, 0) * 13.6 / 1000)  -- Places Details; above 500000 a month an estimate (contact sales)
        + (LEAST(CAST(data_contact AS FLOAT64), 100000) * 3.0 / 1000 + GREATEST(LEAST(CAST(data_contact AS FLOAT64), 500000) - 100000, 0) * 2.4 / 1000 + GREATEST(CAST(data_contact AS FLOAT64) - 500000, 0) * 2.4 / 1000)  -- Contact Data; above 500000 a month an estimate (contact sales)
        + (LEAST(CAST(data_atmosphere AS FLOAT64), 100000) * 5.0 / 1000 + GREATEST(LEAST(CAST(data_atmosphere AS FLOAT64), 500000) - 100000, 0) * 4.0 / 1000 + GREATEST(CAST(data_atmosphere AS FLOAT64) - 500000, 0) * 4.0 / 1000)  -- Atmosphere Data; above 500000 a month an estimate (contact sales)
        + (LEAST(CAST(geocoding AS FLOAT64), 100000) * 5.0 / 1000 + GREATEST(LEAST(CAST(geocoding AS FLOAT64), 500000) - 100000, 0) * 4.0 / 1000 + GREATEST(CAST(geocoding AS FLOAT64) - 500000, 0) * 4.0 / 1000)  -- Geocoding; above 500000 a month an estimate (contact sales)
      ) AS gross
    FROM events
  ) AS billed
)
SELECT
  month,
  MAX(CASE WHEN strategy = 'current' AND delay = 0 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_current_d0,
  MAX(CASE WHEN strategy = 'current' AND delay = 1 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_current_d1,
  MAX(CASE WHEN strategy = 'current' AND delay = 2 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_current_d2,
  MAX(CASE WHEN strategy = 'current' AND delay = 3 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_current_d3,
  MAX(CASE WHEN strategy = 'current' AND delay = 4 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_current_d4,
  MAX(CASE WHEN strategy = 'current' AND delay = 5 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_current_d5,
  MAX(CASE WHEN strategy = 'current' AND delay = 6 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_current_d6,
  MAX(CASE WHEN strategy = 'session_details' AND delay = 0 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_d0,
  MAX(CASE WHEN strategy = 'session_details' AND delay = 1 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_d1,
  MAX(CASE WHEN strategy = 'session_details' AND delay = 2 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_d2,
  MAX(CASE WHEN strategy = 'session_details' AND delay = 3 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_d3,
  MAX(CASE WHEN strategy = 'session_details' AND delay = 4 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_d4,
  MAX(CASE WHEN strategy = 'session_details' AND delay = 5 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_d5,
  MAX(CASE WHEN strategy = 'session_details' AND delay = 6 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_d6,
  MAX(CASE WHEN strategy = 'session_details_basic' AND delay = 0 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_basic_d0,
  MAX(CASE WHEN strategy = 'session_details_basic' AND delay = 1 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_basic_d1,
  MAX(CASE WHEN strategy = 'session_details_basic' AND delay = 2 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_basic_d2,
  MAX(CASE WHEN strategy = 'session_details_basic' AND delay = 3 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_basic_d3,
  MAX(CASE WHEN strategy = 'session_details_basic' AND delay = 4 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_basic_d4,
  MAX(CASE WHEN strategy = 'session_details_basic' AND delay = 5 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_basic_d5,
  MAX(CASE WHEN strategy = 'session_details_basic' AND delay = 6 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_session_details_basic_d6,
  MAX(CASE WHEN strategy = 'per_request_geocoding' AND delay = 0 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_per_request_geocoding_d0,
  MAX(CASE WHEN strategy = 'per_request_geocoding' AND delay = 1 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_per_request_geocoding_d1,
  MAX(CASE WHEN strategy = 'per_request_geocoding' AND delay = 2 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_per_request_geocoding_d2,
  MAX(CASE WHEN strategy = 'per_request_geocoding' AND delay = 3 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_per_request_geocoding_d3,
  MAX(CASE WHEN strategy = 'per_request_geocoding' AND delay = 4 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_per_request_geocoding_d4,
  MAX(CASE WHEN strategy = 'per_request_geocoding' AND delay = 5 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_per_request_geocoding_d5,
  MAX(CASE WHEN strategy = 'per_request_geocoding' AND delay = 6 THEN ROUND(cost_usd * 1000000) / 1000000 END) AS cost_per_request_geocoding_d6
FROM month_costs
GROUP BY month
ORDER BY month;
