/// The release this build is, as `--version` and `stats` report it.
public enum AreasVersion {
    public static let current = "0.5.0"
}
