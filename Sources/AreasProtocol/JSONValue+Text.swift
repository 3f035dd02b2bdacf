extension JSONValue {
    /// The value as JSON text for people to read and paste: members in their order, two
    /// spaces an indent level, an object or array of scalars only on one line.
    public var indentedText: String {
        var out = ""
        write(into: &out, indent: 0)
        return out
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private func write(into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        switch self {
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += pad + Self.quoted(key) + ": "
                value.write(into: &out, indent: indent + 1)
                out += index + 1 < members.count ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            if items.allSatisfy(\.isScalar) {
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += ", " }
                    item.write(into: &out, indent: indent)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad
                item.write(into: &out, indent: indent + 1)
                out += index + 1 < items.count ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .string(let text): out += Self.quoted(text)
        case .number(let number):
            var writer = JSONWriter(capacity: 32)
            writer.number(number)
            out += String(decoding: writer.bytes, as: UTF8.self)
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func quoted(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 8)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
