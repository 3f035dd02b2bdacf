/// How much of each area a query answer carries.
public enum OutputMode: String, Sendable, CaseIterable {
    /// Every shown field.
    case full
    /// Only the id and the distance, like Redis `WITHDIST`.
    case ids
    /// Only the count.
    case count
}
