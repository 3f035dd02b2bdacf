/// What the bundled samples hold, as `samples/generate.py` writes them: the one place tests take
/// these numbers from.
public enum SampleCounts {
    /// Pages of the recorded non-smoking-zone answer (1,000 rows a page, 750 on the last).
    public static let nonSmokingZonePages = 3
    /// Rows in those pages, before validation.
    public static let nonSmokingZoneRows = 2750
    /// Zones left after validation: rows without a usable position and exact repeats go.
    public static let nonSmokingZones = 2643
    /// Smoking areas per sample source (Anyang publishes one row without a position).
    public static let yongsan = 57
    public static let anyang = 129
    public static let ulsanBukgu = 24
    /// Areas the sample config serves.
    public static let total = nonSmokingZones + yongsan + anyang + ulsanBukgu
}
