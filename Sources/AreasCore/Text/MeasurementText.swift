/// Distances and durations as people read them, shared by the daemon's logs and sentences and
/// the client's tables.
public enum MeasurementText {
    /// `95 m`, `2.4 km`, `31 km`.
    public static func distance(_ meters: Double) -> String {
        guard meters.isFinite, meters >= 0, meters < 1e9 else { return "? m" }
        if meters < 1000 { return "\(Int(meters.rounded())) m" }
        if meters < 10_000 { return "\((meters / 100).rounded() / 10) km" }
        return "\(Int((meters / 1000).rounded())) km"
    }

    /// `45 s`, `12 min`, `5 h`, `3 days`. A value that is not a finite, plausible age (a clock
    /// set back, a hostile file) reads as `unknown` rather than trapping in a conversion.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return "unknown" }
        if seconds < 120 { return "\(Int(seconds)) s" }
        if seconds < 7200 { return "\(Int(seconds / 60)) min" }
        if seconds < 172_800 { return "\(Int(seconds / 3600)) h" }
        return "\(Int(seconds / 86400)) days"
    }

    /// `37.55541`: a latitude or longitude to five decimals (about a metre), as tables print
    /// positions; `?` for what is not a coordinate.
    public static func coordinate(_ degrees: Double) -> String {
        guard degrees.isFinite, abs(degrees) <= 360 else { return "?" }
        let scaled = Int((abs(degrees) * 100_000).rounded())
        let fraction = String(scaled % 100_000)
        return (degrees < 0 && scaled > 0 ? "-" : "") + "\(scaled / 100_000)." + String(repeating: "0", count: 5 - fraction.count) + fraction
    }
}
