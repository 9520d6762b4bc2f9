/// The catalogs of one analysis: every string-valued property of a call that is not a token or
/// a user id.
package struct CallCatalogs: Sendable {
    package let labels = LabelCatalog<String>()
    /// Requested field lists, as `CallDecoder` cleans them (never empty).
    package let fieldMasks = LabelCatalog<[String]>()

    package init() {}
}
