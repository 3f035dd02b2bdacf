extension JSONValue {
    /// The value of member `key` of an object (the last, when repeated), or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.last { $0.0 == key }?.1 }
        return nil
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var double: Double? { if case .number(let n) = self { return n }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The elements of an array; empty for anything else.
    public var array: [JSONValue] { if case .array(let a) = self { return a }; return [] }
}
