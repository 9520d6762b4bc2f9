/// What `analyze --by` breaks the report down by (`docs/report-schema.md`, "Cost by group").
///
/// A call counts in the group of its own attributes; a search in the group of the attributes it
/// is recorded with (its project; the platform and API generation of its first call that names
/// one; the calendar day, in `--timezone`, of its first call).
enum GroupDimension: String, Sendable, CaseIterable {
    case project
    case platform
    case apiVersion = "api_version"
    case day
}
