import Foundation

/// A small JSON Lines log of two searches, for commands that need one.
let smallLog = """
{"timestamp":"2026-10-01T00:46:37.450Z","api":"autocomplete","session_token":"t1","input":"S","api_version":"legacy","user_id":"u1"}
{"timestamp":"2026-10-01T00:46:38.450Z","api":"autocomplete","session_token":"t1","input":"St","api_version":"legacy","user_id":"u1"}
{"timestamp":"2026-10-01T00:46:40.000Z","api":"place_details","session_token":"t1","place_id":"p1","fields":["formatted_address"],"api_version":"legacy","user_id":"u1"}
{"timestamp":"2026-10-02T10:00:00.000Z","api":"autocomplete","session_token":"t2","input":"B","api_version":"legacy","user_id":"u2"}

"""
