/// Whether smoking is allowed at an area: a designated smoking area, or a non-smoking zone.
public enum AreaKind: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case smoking
    case nonsmoking
}

/// A query's kind filter: one kind, or both.
public enum KindFilter: String, Sendable, Hashable, CaseIterable {
    case all
    case smoking
    case nonsmoking

    /// Whether an area of `kind` passes the filter.
    @inlinable
    public func admits(_ kind: AreaKind) -> Bool {
        switch self {
        case .all: return true
        case .smoking: return kind == .smoking
        case .nonsmoking: return kind == .nonsmoking
        }
    }
}
