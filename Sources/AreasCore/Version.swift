/// The release this build is, as `--version`, `stats` and the manual pages report it.
public enum AreasVersion {
    public static let current = "0.5.0"
    /// The day this release was cut, for the manual pages' footer.
    public static let date = "2026-12-01"
}
