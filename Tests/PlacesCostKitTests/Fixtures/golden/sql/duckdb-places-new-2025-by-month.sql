-- placescost 0.1.0: the analysis of `placescost analyze` as one DuckDB statement.
-- Reads "calls": one row per call with the canonical columns timestamp, api,
--   session_token, input, fields (a list of strings), user_id and project (the last two may be all NULL).
-- Rules of sessions.md: session timeout 180 s from the session's start, user gap 60 s,
--   delays 1,2,3,4,5,6 (characters counted in Unicode code points).
-- Prices of `places-new-2025` (Places API (New): the 12-request cap and the terminating-SKU rule), inlined below.
-- Calls at the same time keep the table's row order (the log's order when loaded as the README shows).
-- Returns one row per calendar month (Europe/Paris): month (YYYY-MM) and cost_<strategy>_d<delay>,
--   the bill after free caps, tiers and credit (costs.csv's cost_usd), USD rounded to 1e-6.
WITH
-- The calls as the engine reads them: time in microseconds since the epoch (UTC), api names and
-- their aliases in any case mapped to the canonical name (unknown names: 'other', no part in
-- sessions), empty strings as absent, the input's length in code points: the text's, else the
-- recorded input_length (a privacy-first log has only that; NULL: no input).
calls_read AS (
  SELECT
    CASE
      WHEN typeof("timestamp") = 'TIMESTAMP WITH TIME ZONE' THEN epoch_us(CAST("timestamp" AS TIMESTAMPTZ))
      WHEN typeof("timestamp") LIKE 'TIMESTAMP%' THEN epoch_us(CAST("timestamp" AS TIMESTAMP))
      WHEN regexp_full_match(trim(CAST("timestamp" AS VARCHAR), '"'), '[0-9]+')
        THEN CAST(trim(CAST("timestamp" AS VARCHAR), '"') AS BIGINT) * CASE WHEN CAST(trim(CAST("timestamp" AS VARCHAR), '"') AS BIGINT) < 100000000000 THEN 1000000 ELSE 1000 END
      WHEN regexp_full_match(trim(CAST("timestamp" AS VARCHAR), '"'), '-?[0-9]+[.][0-9]*([eE][-+]?[0-9]+)?|-?[0-9]+[eE][-+]?[0-9]+')
        THEN CAST(round(CAST(trim(CAST("timestamp" AS VARCHAR), '"') AS DOUBLE) * CASE WHEN CAST(trim(CAST("timestamp" AS VARCHAR), '"') AS DOUBLE) < 100000000000 THEN 1000000 ELSE 1000 END) AS BIGINT)
      ELSE epoch_us(CAST(upper(trim(CAST("timestamp" AS VARCHAR), '"')) AS TIMESTAMPTZ))
    END AS ts_us,
    ROW_NUMBER() OVER () AS ord,
    CASE lower(CAST("api" AS VARCHAR))
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
    COALESCE(NULLIF(CAST("session_token" AS VARCHAR), ''), NULLIF(CAST("sessionToken" AS VARCHAR), '')) AS token,
    COALESCE(
      length(CAST("input" AS VARCHAR)),
      CAST(COALESCE(NULLIF(trim(CAST("input_length" AS VARCHAR), '"'), ''), NULLIF(trim(CAST("inputLength" AS VARCHAR), '"'), '')) AS BIGINT)
    ) AS input_len,
    NULLIF(CAST("user_id" AS VARCHAR), '') AS user_id,
    NULLIF(CAST("project" AS VARCHAR), '') AS project,
    CASE WHEN typeof("fields") = 'VARCHAR'
      THEN string_split(CAST("fields" AS VARCHAR), CASE WHEN contains(CAST("fields" AS VARCHAR), '|') THEN '|' ELSE ',' END)
      ELSE CAST("fields" AS VARCHAR[]) END AS fields
  FROM (
    -- Optional columns a loader left out (read_json_auto drops keys no record has) are NULL;
    -- the aliases analyze also reads count when the canonical column is empty: sessionToken
    -- for session_token, inputLength for input_length.
    SELECT * FROM "calls"
    UNION ALL BY NAME
    SELECT NULL AS "session_token", NULL AS "sessionToken", NULL AS "input", NULL AS "input_length", NULL AS "inputLength", NULL AS "fields", NULL AS "user_id", NULL AS "project" WHERE false
  ) AS source
  WHERE "timestamp" IS NOT NULL AND "api" IS NOT NULL AND CAST("api" AS VARCHAR) <> ''
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
      SELECT fields AS mask_key, ANY_VALUE(fields) AS fields
      FROM calls_read WHERE api = 'place_details' AND fields IS NOT NULL
      GROUP BY 1
    ) AS d
    CROSS JOIN unnest(d.fields) AS listed(f)
  ) AS trimmed
  WHERE name <> ''
),
-- What each mask bills: the New details SKU, 0 IDs Only, 1 Essentials, 2 Pro, 3 Enterprise, 4 Enterprise
-- + Atmosphere: the highest of its fields (4 with `*`; an unknown name bills as Pro).
masks AS (
  SELECT
    mask_key,
    CASE WHEN MAX(CASE WHEN name = '*' THEN 1 ELSE 0 END) = 1 THEN 4
      ELSE MAX(
        CASE
          WHEN field IN ('attributions', 'id', 'movedplace', 'movedplaceid', 'name', 'photo', 'photos',
              'placeid') THEN 0
          WHEN field IN ('addresscomponent', 'addresscomponents', 'adraddress', 'adrformataddress',
              'coordinate', 'formattedaddress', 'geometry', 'location', 'pluscode', 'postaladdress',
              'shortformattedaddress', 'type', 'types', 'vicinity', 'viewport') THEN 1
          WHEN field IN ('accessibilityoptions', 'addressdescriptor', 'businessstatus', 'containingplaces',
              'displayname', 'googlemapslinks', 'googlemapsuri', 'icon', 'iconbackgroundcolor',
              'iconmaskbaseuri', 'permanentlyclosed', 'primarytype', 'primarytypedisplayname',
              'pureserviceareabusiness', 'subdestinations', 'timezone', 'url', 'utcoffset',
              'utcoffsetminutes', 'wheelchairaccessibleentrance') THEN 2
          WHEN field IN ('currentopeninghours', 'currentsecondaryopeninghours', 'formattedphonenumber',
              'internationalphonenumber', 'nationalphonenumber', 'openinghours', 'phonenumber',
              'pricelevel', 'pricerange', 'rating', 'regularopeninghours', 'regularsecondaryopeninghours',
              'secondaryopeninghours', 'userratingcount', 'userratingstotal', 'website',
              'websiteuri') THEN 3
          WHEN field IN ('curbsidepickup', 'delivery', 'dinein', 'editorialsummary', 'evchargeoptions',
              'fueloptions', 'generativesummary', 'livemusic', 'menuforchildren', 'outdoorseating',
              'parkingoptions', 'paymentoptions', 'reservable', 'restroom', 'review', 'reviews',
              'reviewsummary', 'takeout') THEN 4
          WHEN starts_with(field, 'serves') OR starts_with(field, 'allows') OR starts_with(field, 'goodfor') THEN 4
          ELSE 2
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
    COALESCE(m.mask_sku, 4) AS mask_sku
  FROM calls_read AS c
  LEFT JOIN masks AS m ON c.api = 'place_details' AND c.fields = m.mask_key
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
  WINDOW w AS (PARTITION BY project, token ORDER BY ts_us, ord)
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
  WINDOW w AS (PARTITION BY project, user_id ORDER BY ts_us, ord)
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
    CASE WHEN start_us >= 1740787200000000 THEN 1 ELSE 0 END AS terminator_ea,
    strftime(timezone('Europe/Paris', timezone('UTC', make_timestamp(start_us))), '%Y-%m') AS month,
    COUNT(*) AS searches
  FROM searches
  GROUP BY kind, completed, selection_api, selection_sku, n_0, n_1, n_2, n_3, n_4, n_5, n_6, terminator_ea, month
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
    g.strategy, g.delay, s.searches, s.terminator_ea, s.month,
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
    SUM(searches * CASE WHEN plan IN ('per_request', 'abandoned_session') THEN n WHEN plan = 'completed_session' AND mask = 0 THEN n WHEN plan = 'completed_session' AND mask = 1 THEN LEAST(n, 12) ELSE 0 END) AS autocomplete_request,
    SUM(searches * CASE WHEN plan = 'session_elsewhere' THEN n WHEN plan = 'completed_session' AND mask = 1 THEN n - LEAST(n, 12) WHEN plan = 'completed_session' AND mask >= 2 THEN n ELSE 0 END) AS autocomplete_session_usage,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND mask = 0 THEN 1 ELSE 0 END) AS details_ids_only,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND mask = 1 THEN 1 ELSE 0 END) AS details_essentials,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND mask = 2 AND NOT (plan = 'completed_session' AND terminator_ea = 1) THEN 1 ELSE 0 END) AS details_pro,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND mask = 3 AND NOT (plan = 'completed_session' AND terminator_ea = 1) THEN 1 ELSE 0 END) AS details_enterprise,
    SUM(searches * CASE WHEN (plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details')) AND (mask = 4 OR (plan = 'completed_session' AND mask >= 2 AND terminator_ea = 1)) THEN 1 ELSE 0 END) AS details_enterprise_atmosphere,
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
    COALESCE(SUM(CASE WHEN api = 'place_details' AND mask_sku = 0 THEN 1 ELSE 0 END), 0) AS details_ids_only,
    COALESCE(SUM(CASE WHEN api = 'place_details' AND mask_sku = 1 THEN 1 ELSE 0 END), 0) AS details_essentials,
    COALESCE(SUM(CASE WHEN api = 'place_details' AND mask_sku = 2 THEN 1 ELSE 0 END), 0) AS details_pro,
    COALESCE(SUM(CASE WHEN api = 'place_details' AND mask_sku = 3 THEN 1 ELSE 0 END), 0) AS details_enterprise,
    COALESCE(SUM(CASE WHEN api = 'place_details' AND mask_sku = 4 THEN 1 ELSE 0 END), 0) AS details_enterprise_atmosphere,
    COALESCE(SUM(CASE WHEN api = 'geocoding' THEN 1 ELSE 0 END), 0) AS geocoding
  FROM (SELECT api, mask_sku, strftime(timezone('Europe/Paris', timezone('UTC', make_timestamp(ts_us))), '%Y-%m') AS month FROM base_calls) AS b
  GROUP BY month
),
-- All events per strategy and delay and month (the months any search or base call falls in).
events AS (
  SELECT
    g.strategy, g.delay, m.month,
    COALESCE(e.autocomplete_request, 0) + COALESCE(b.autocomplete_request, 0) AS autocomplete_request,
    COALESCE(b.query_autocomplete_request, 0) AS query_autocomplete_request,
    COALESCE(e.autocomplete_session_usage, 0) AS autocomplete_session_usage,
    COALESCE(e.details_ids_only, 0) + COALESCE(b.details_ids_only, 0) AS details_ids_only,
    COALESCE(e.details_essentials, 0) + COALESCE(b.details_essentials, 0) AS details_essentials,
    COALESCE(e.details_pro, 0) + COALESCE(b.details_pro, 0) AS details_pro,
    COALESCE(e.details_enterprise, 0) + COALESCE(b.details_enterprise, 0) AS details_enterprise,
    COALESCE(e.details_enterprise_atmosphere, 0) + COALESCE(b.details_enterprise_atmosphere, 0) AS details_enterprise_atmosphere,
    COALESCE(e.geocoding, 0) + COALESCE(b.geocoding, 0) AS geocoding
  FROM strategy_grid AS g
  CROSS JOIN (SELECT month FROM search_shapes UNION DISTINCT SELECT month FROM base_events) AS m
  LEFT JOIN search_events AS e ON e.strategy = g.strategy AND e.delay = g.delay AND e.month = m.month
  LEFT JOIN base_events AS b ON b.month = m.month
),
-- cost_usd (sessions.md, From counts to money): per month, each SKU's volume after its free
-- monthly cap, priced through the graduated tiers of `places-new-2025` (USD per 1,000 events).
month_costs AS (
  SELECT
    month, strategy, delay,
    (
        (GREATEST(LEAST(CAST(autocomplete_request + query_autocomplete_request AS DOUBLE), 100000) - 10000, 0) * 2.83 / 1000 + GREATEST(LEAST(CAST(autocomplete_request + query_autocomplete_request AS DOUBLE), 500000) - 100000, 0) * 2.27 / 1000 + GREATEST(LEAST(CAST(autocomplete_request + query_autocomplete_request AS DOUBLE), 1000000) - 500000, 0) * 1.7 / 1000 + GREATEST(LEAST(CAST(autocomplete_request + query_autocomplete_request AS DOUBLE), 5000000) - 1000000, 0) * 0.85 / 1000 + GREATEST(LEAST(CAST(autocomplete_request + query_autocomplete_request AS DOUBLE), 10000000) - 5000000, 0) * 0.21 / 1000 + GREATEST(CAST(autocomplete_request + query_autocomplete_request AS DOUBLE) - 10000000, 0) * 0.21 / 1000)  -- Autocomplete Requests; above 10000000 a month an estimate (contact sales)
      + (GREATEST(LEAST(CAST(details_essentials AS DOUBLE), 100000) - 10000, 0) * 5.0 / 1000 + GREATEST(LEAST(CAST(details_essentials AS DOUBLE), 500000) - 100000, 0) * 4.0 / 1000 + GREATEST(LEAST(CAST(details_essentials AS DOUBLE), 1000000) - 500000, 0) * 3.0 / 1000 + GREATEST(LEAST(CAST(details_essentials AS DOUBLE), 5000000) - 1000000, 0) * 1.5 / 1000 + GREATEST(LEAST(CAST(details_essentials AS DOUBLE), 10000000) - 5000000, 0) * 0.38 / 1000 + GREATEST(CAST(details_essentials AS DOUBLE) - 10000000, 0) * 0.38 / 1000)  -- Place Details Essentials; above 10000000 a month an estimate (contact sales)
      + (GREATEST(LEAST(CAST(details_pro AS DOUBLE), 100000) - 5000, 0) * 17.0 / 1000 + GREATEST(LEAST(CAST(details_pro AS DOUBLE), 500000) - 100000, 0) * 13.6 / 1000 + GREATEST(LEAST(CAST(details_pro AS DOUBLE), 1000000) - 500000, 0) * 10.2 / 1000 + GREATEST(LEAST(CAST(details_pro AS DOUBLE), 5000000) - 1000000, 0) * 5.1 / 1000 + GREATEST(LEAST(CAST(details_pro AS DOUBLE), 10000000) - 5000000, 0) * 1.28 / 1000 + GREATEST(CAST(details_pro AS DOUBLE) - 10000000, 0) * 1.28 / 1000)  -- Place Details Pro; above 10000000 a month an estimate (contact sales)
      + (GREATEST(LEAST(CAST(details_enterprise AS DOUBLE), 100000) - 1000, 0) * 20.0 / 1000 + GREATEST(LEAST(CAST(details_enterprise AS DOUBLE), 500000) - 100000, 0) * 16.0 / 1000 + GREATEST(LEAST(CAST(details_enterprise AS DOUBLE), 1000000) - 500000, 0) * 12.0 / 1000 + GREATEST(LEAST(CAST(details_enterprise AS DOUBLE), 5000000) - 1000000, 0) * 6.0 / 1000 + GREATEST(LEAST(CAST(details_enterprise AS DOUBLE), 10000000) - 5000000, 0) * 1.51 / 1000 + GREATEST(CAST(details_enterprise AS DOUBLE) - 10000000, 0) * 1.51 / 1000)  -- Place Details Enterprise; above 10000000 a month an estimate (contact sales)
      + (GREATEST(LEAST(CAST(details_enterprise_atmosphere AS DOUBLE), 100000) - 1000, 0) * 25.0 / 1000 + GREATEST(LEAST(CAST(details_enterprise_atmosphere AS DOUBLE), 500000) - 100000, 0) * 20.0 / 1000 + GREATEST(LEAST(CAST(details_enterprise_atmosphere AS DOUBLE), 1000000) - 500000, 0) * 15.0 / 1000 + GREATEST(LEAST(CAST(details_enterprise_atmosphere AS DOUBLE), 5000000) - 1000000, 0) * 7.5 / 1000 + GREATEST(LEAST(CAST(details_enterprise_atmosphere AS DOUBLE), 10000000) - 5000000, 0) * 2.28 / 1000 + GREATEST(CAST(details_enterprise_atmosphere AS DOUBLE) - 10000000, 0) * 2.28 / 1000)  -- Place Details Enterprise + Atmosphere; above 10000000 a month an estimate (contact sales)
      + (GREATEST(LEAST(CAST(geocoding AS DOUBLE), 100000) - 10000, 0) * 5.0 / 1000 + GREATEST(LEAST(CAST(geocoding AS DOUBLE), 500000) - 100000, 0) * 4.0 / 1000 + GREATEST(LEAST(CAST(geocoding AS DOUBLE), 1000000) - 500000, 0) * 3.0 / 1000 + GREATEST(LEAST(CAST(geocoding AS DOUBLE), 5000000) - 1000000, 0) * 1.5 / 1000 + GREATEST(LEAST(CAST(geocoding AS DOUBLE), 10000000) - 5000000, 0) * 0.38 / 1000 + GREATEST(CAST(geocoding AS DOUBLE) - 10000000, 0) * 0.38 / 1000)  -- Geocoding; above 10000000 a month an estimate (contact sales)
    ) AS cost_usd
  FROM events
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
