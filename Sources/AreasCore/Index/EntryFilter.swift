/// Which entries a tree query may return, beyond the class mask: a region, say.
///
/// Queries are generic over it so the common case, `AdmitAll`, costs nothing.
public protocol EntryFilter {
    /// True when every entry passes: lets the search use whole-subtree counts.
    var admitsAll: Bool { get }
    func admits(_ payload: UInt32) -> Bool
}

public struct AdmitAll: EntryFilter {
    public init() {}
    @inline(__always) public var admitsAll: Bool { true }
    @inline(__always) public func admits(_ payload: UInt32) -> Bool { true }
}

/// Admits the payloads a closure accepts.
public struct AdmitWhere: EntryFilter {
    let predicate: (UInt32) -> Bool
    public init(_ predicate: @escaping (UInt32) -> Bool) { self.predicate = predicate }
    public var admitsAll: Bool { false }
    public func admits(_ payload: UInt32) -> Bool { predicate(payload) }
}
