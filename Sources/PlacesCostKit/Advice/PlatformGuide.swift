/// The concrete changes for a recommendation, in each platform's own API names, and the fix of
/// each anomaly (`docs/billing.md` sections 2 and 6).
enum PlatformGuide {
    /// Steps to move the app to `strategy` at `delay`, for each platform and generation seen.
    static func nextSteps(strategy: StrategyID, delay: Int, platforms: [PlatformUse]) -> [String] {
        var steps: [String] = []
        if strategy == .current {
            steps.append("Keep the calls as made (their tokens, details calls and field masks) and only send them from a later character: at this volume that bills less than any change to how searches are billed.")
        }
        for use in platforms {
            switch strategy {
            case .current:
                break
            case .sessionDetails:
                steps.append(sessionStep(use, mask: .needed))
            case .sessionDetailsBasic:
                steps.append(sessionStep(use, mask: .addressAndLocation))
            case .perRequestGeocoding:
                steps.append(perRequestStep(use))
            }
        }
        if delay > 0 {
            steps += delaySteps(delay, platforms: platforms)
        }
        let costs = "`current` should cost what `\(strategy.rawValue)` with delay \(delay) costs here"
        switch strategy {
        case .current:
            steps.append("Re-run `placescost analyze` on a week of logs after the change: \(costs).")
        case .perRequestGeocoding:
            steps.append("Re-run `placescost analyze` on a week of logs after the change: every autocomplete call then goes without a token, so `no_token_requests` counts them all by design; the other anomaly counts should drop to zero and \(costs).")
        case .sessionDetails, .sessionDetailsBasic:
            steps.append("Re-run `placescost analyze` on a week of logs after the change: the anomaly counts should drop to zero and \(costs).")
        }
        // Two uses can ask for the same change (one platform on both generations where the
        // step does not depend on it): each step once.
        var seen = Set<String>()
        return steps.filter { seen.insert($0).inserted }
    }

    /// Steps when no valid option bills less than the calls as made: the anomaly fixes that save
    /// money at list prices, and when to look again.
    static func keepSteps(searches: Int, fixes: [AnomalyAdvice], change: Recommendation.ScaleChange?) -> [String] {
        var steps = [searches == 0
            ? "Keep the integration as it is: the log holds no autocomplete search to bill another way."
            : fixes.isEmpty
            ? "Keep the integration as it is: at this volume no option that serves the app bills less than the calls as made."
            : "Keep the integration as it is: at this volume no option that serves the app bills less than the calls as made. The fixes below bill less at list prices (the anomaly table), which is what counts once past the free caps; at this volume they need not lower the bill."]
        steps += fixes.map { "Fix `\($0.cost.name)` (\(Money.count($0.cost.count)) seen): \($0.fix)" }
        if let change {
            steps.append("Run `placescost analyze` again as traffic \(change.growing ? "grows" : "shrinks"): from about \(Money.count(change.searchesPerMonth, "search", "searches")) a month (`--scale \(Money.argument(change.scale, digits: 4))` on this log) `\(change.strategy.rawValue)` with delay \(change.delay) bills less than the calls as made.")
        } else {
            steps.append("Run `placescost analyze` again when the traffic or the price list changes.")
        }
        return steps
    }

    /// How to wait for more than `delay` characters before the first request, on each platform.
    static func delaySteps(_ delay: Int, platforms: [PlatformUse]) -> [String] {
        let wait = "users then see predictions from the \(DecisionTree.ordinal(delay + 1)) character on; show a hint such as \"keep typing\" meanwhile"
        var seen = Set<ClientPlatform>()
        return platforms.filter { seen.insert($0.platform).inserted }.map { use in
            switch use.platform {
            case .ios:
                return "iOS: in the text field's change handler, call `findAutocompletePredictions` (or `fetchAutocompleteSuggestions`) only when `query.unicodeScalars.count > \(delay)`; \(wait)."
            case .android:
                return "Android: in the `TextWatcher`'s `afterTextChanged`, call `findAutocompletePredictions` only when `query.codePointCount(0, query.length) > \(delay)`; \(wait)."
            case .javascript:
                return "Web (Maps JavaScript API): call `getPlacePredictions` (or `AutocompleteSuggestion.fetchAutocompleteSuggestions`) only when `[...input.value].length > \(delay)`; the drop-in `Autocomplete` widget cannot wait, so use the service with your own list; \(wait)."
            case .webService:
                return "Web service: send no autocomplete request while the input has \(delay) or fewer characters (count code points: `[...query].length > \(delay)` in JavaScript, `len(query) > \(delay)` in Python, `query.unicodeScalars.count > \(delay)` in Swift); \(wait)."
            }
        }
    }

    enum Mask {
        case needed, addressAndLocation
    }

    private static func sessionStep(_ use: PlatformUse, mask: Mask) -> String {
        let basic = mask == .addressAndLocation
        switch (use.platform, use.generation) {
        case (.ios, .legacy):
            return "iOS (Places SDK for iOS): create one `GMSAutocompleteSessionToken()` when the user starts a search, pass it to every `findAutocompletePredictions(fromQuery:filter:sessionToken:callback:)` call and to `fetchPlace(fromPlaceID:placeFields:sessionToken:callback:)` for the chosen place, then discard it. Set `placeFields` to " + (basic ? "`[.formattedAddress, .coordinate]` (a `GMSPlaceField` mask of Basic fields)." : "only the `GMSPlaceField` values the screen shows, never `.all`.")
        case (.ios, .new):
            return "iOS (Places SDK for iOS, New API): create one `GMSAutocompleteSessionToken()` per search, set it as `sessionToken` on each `GMSAutocompleteRequest` and pass it to `GMSFetchPlaceRequest(placeID:placeProperties:sessionToken:)` for the chosen place. Set `placeProperties` to " + (basic ? "`[GMSPlaceProperty.formattedAddress, .coordinate].map(\\.rawValue)` (Essentials fields only)." : "only the `GMSPlaceProperty` values the screen shows.")
        case (.android, _):
            return "Android (Places SDK for Android): create one `AutocompleteSessionToken.newInstance()` per search, `setSessionToken(token)` on each `FindAutocompletePredictionsRequest` and on the `FetchPlaceRequest` of the chosen place, built with " + (basic ? "`listOf(Place.Field.FORMATTED_ADDRESS, Place.Field.LOCATION)` (address and location only)." : "only the `Place.Field` values the screen shows.")
        case (.javascript, .legacy):
            return "Web (Maps JavaScript API, `AutocompleteService`): create one `new google.maps.places.AutocompleteSessionToken()` per search, pass it as `sessionToken` to every `getPlacePredictions` request and to the `PlacesService.getDetails` request of the chosen place, with `fields: " + (basic ? "['formatted_address', 'geometry']`." : "[...]` listing only the fields the page shows.")
        case (.javascript, .new):
            return "Web (Maps JavaScript API, Places library (New)): create one `new google.maps.places.AutocompleteSessionToken()` per search and pass it as `sessionToken` to every `AutocompleteSuggestion.fetchAutocompleteSuggestions` request; for the chosen suggestion, call `placePrediction.toPlace()` and then `place.fetchFields({ fields: " + (basic ? "['formattedAddress', 'location'] })` once (Essentials fields only): its first `fetchFields` carries the token and ends the session." : "[...] })` once, listing only the fields the page shows: its first `fetchFields` carries the token and ends the session.")
        case (.webService, .legacy):
            return "Web service: add `sessiontoken=` with a new UUID v4 per search to every `/maps/api/place/autocomplete/json` call and to the `/maps/api/place/details/json` call of the chosen place, with `fields=" + (basic ? "formatted_address,geometry`." : "...` listing only the fields the app uses.")
        case (.webService, .new):
            return "Places API (New): send `\"sessionToken\"` with a new UUID v4 per search in the body of every `POST /v1/places:autocomplete` and as `?sessionToken=` on the `GET /v1/places/PLACE_ID` of the chosen place, with the header `X-Goog-FieldMask: " + (basic ? "formattedAddress,location` (Essentials fields: the session's details are billed as Place Details Essentials)." : "...` listing only the fields the app uses (each Pro, Enterprise or Atmosphere field moves the call to a dearer SKU).")
        }
    }

    private static func perRequestStep(_ use: PlatformUse) -> String {
        // Worded for an app that sends tokens and for one that already sends none: the step says
        // what the calls should be, not only what to remove.
        let geocode = "then, for the chosen prediction, one Geocoding call with its place ID (`GET https://maps.googleapis.com/maps/api/geocode/json?place_id=PLACE_ID`), not Place Details"
        switch (use.platform, use.generation) {
        case (.ios, _):
            return "iOS: make every `findAutocompletePredictions` call without a session token (`sessionToken: nil`, no `GMSAutocompleteSessionToken`), \(geocode), from your backend so the key stays off the device."
        case (.android, _):
            return "Android: build every `FindAutocompletePredictionsRequest` without a session token (no `setSessionToken`), \(geocode), from your backend so the key stays off the device."
        case (.javascript, .legacy):
            return "Web (Maps JavaScript API, `AutocompleteService`): send `getPlacePredictions` requests without `sessionToken`, then geocode the chosen prediction with `new google.maps.Geocoder().geocode({ placeId })`, not a details request."
        case (.javascript, .new):
            return "Web (Maps JavaScript API, Places library (New)): send `AutocompleteSuggestion.fetchAutocompleteSuggestions` requests without `sessionToken`, then geocode the chosen suggestion with `new google.maps.Geocoder().geocode({ placeId: placePrediction.placeId })`, not `fetchFields`."
        case (.webService, .legacy):
            return "Web service: send `/maps/api/place/autocomplete/json` calls without `sessiontoken`, \(geocode)."
        case (.webService, .new):
            return "Places API (New): send `POST /v1/places:autocomplete` without `sessionToken` in its body, \(geocode)."
        }
    }

    /// How to stop each anomaly from costing money, by its `report.json` name.
    static func fix(for anomaly: String) -> String {
        switch anomaly {
        case "token_reused":
            "Create a new session token for every search and discard it once the details call for the selection is made; calls made with a spent token are billed as if they had none."
        case "expired":
            "Start a new token for each search, and another when the user comes back to the field after a pause or clears it: a session counts from its first request, one without a selection within a few minutes of it is billed as abandoned, and its later calls as if they had no token."
        case "details_without_autocomplete":
            "Pass the token of the search's autocomplete calls to its details call: a details call with a token no autocomplete call used is billed on its own, and the search's session is billed as abandoned."
        case "no_token_requests":
            "Autocomplete calls without a token are billed per request: give every search a token, unless per-request autocomplete with Geocoding is the recommendation."
        case "fields_unspecified":
            "Always send a field mask: a details call without one returns and bills every field, including the Contact and Atmosphere (or Enterprise + Atmosphere) data."
        case "fields_wildcard":
            "Replace the `*` field mask with the fields the app reads: `*` asks for every field, so each details call bills as one without a mask, at the highest data SKU."
        case "one_request_sessions":
            "Sessions holding one request usually mean a new token per keystroke: create the token once per search, not per call."
        default:
            ""
        }
    }
}
