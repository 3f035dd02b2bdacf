/// A shape written as text, so that it rides in its record as one more field
/// (`ShapeText.fieldKey`): every path that carries a record (sorting, merging, the snapshot, a
/// follower, `get`) then carries its shape without a column of its own.
///
/// The text is the encoded-polyline form (each coordinate's difference from the one before, in
/// 1e-7 degrees, as 5-bit groups in the characters `?` to `~`): about 7 bytes a vertex, close
/// to the 8 of two `Int32`. `P` or `L` says polygon or line; `;` separates polygons (or paths),
/// ` ` the rings of one polygon.
public enum ShapeText {
    /// The key of the field holding a record's shape. It begins with a control character no
    /// upstream column name has, and answers leave it out of the fields they list.
    public static let fieldKey = "\u{1}shape"

    /// Whether `key` is a field this build adds to a record (its shape), not one published.
    @inlinable
    public static func isAdded(_ key: UnsafeBufferPointer<UInt8>) -> Bool { key.first == 1 }

    public static func encode(_ shape: Shape) -> String {
        var bytes: [UInt8] = [shape.kind == .polygon ? UInt8(ascii: "P") : UInt8(ascii: "L")]
        for (p, part) in shape.parts.enumerated() {
            if p > 0 { bytes.append(UInt8(ascii: ";")) }
            for (r, ring) in part.enumerated() {
                if r > 0 { bytes.append(UInt8(ascii: " ")) }
                var previous = ShapeVertex(latitude: 0, longitude: 0)
                for vertex in ring {
                    append(Int64(vertex.latitude) - Int64(previous.latitude), to: &bytes)
                    append(Int64(vertex.longitude) - Int64(previous.longitude), to: &bytes)
                    previous = vertex
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(_ delta: Int64, to bytes: inout [UInt8]) {
        var value = UInt64(bitPattern: delta < 0 ? ~(delta << 1) : delta << 1)
        while value >= 0x20 {
            bytes.append(UInt8(0x20 | (value & 0x1F)) + 63)
            value >>= 5
        }
        bytes.append(UInt8(value) + 63)
    }

    /// The shape a field's text holds; nil for text this build does not write (a hostile
    /// snapshot's), or one of more than `maximumVertices`.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>, maximumVertices: Int = ShapeLimits.maximumVertices) -> Shape? {
        guard let first = text.first else { return nil }
        let kind: Shape.Kind
        switch first {
        case UInt8(ascii: "P"): kind = .polygon
        case UInt8(ascii: "L"): kind = .line
        default: return nil
        }
        var parts: [[[ShapeVertex]]] = [[[]]]
        var vertices = 0
        var previous = (latitude: Int64(0), longitude: Int64(0))
        var i = 1
        func number() -> Int64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while i < text.count {
                let byte = text[i]
                guard (63...126).contains(byte), shift < 40 else { return nil }
                i += 1
                let group = UInt64(byte - 63)
                value |= (group & 0x1F) << shift
                shift += 5
                if group < 0x20 { return value & 1 == 1 ? ~Int64(value >> 1) : Int64(value >> 1) }
            }
            return nil
        }
        while i < text.count {
            switch text[i] {
            case UInt8(ascii: ";"):
                parts.append([[]])
                previous = (0, 0)
                i += 1
                continue
            case UInt8(ascii: " "):
                guard kind == .polygon else { return nil }
                parts[parts.count - 1].append([])
                previous = (0, 0)
                i += 1
                continue
            default:
                break
            }
            guard let dLat = number(), let dLon = number() else { return nil }
            let latitude = previous.latitude + dLat
            let longitude = previous.longitude + dLon
            guard abs(latitude) <= 900_000_000, abs(longitude) <= 1_800_000_000 else { return nil }
            previous = (latitude, longitude)
            vertices += 1
            guard vertices <= maximumVertices else { return nil }
            parts[parts.count - 1][parts[parts.count - 1].count - 1].append(ShapeVertex(latitude: Int32(latitude), longitude: Int32(longitude)))
        }
        let shape = Shape(kind: kind, parts: parts)
        let least = kind == .polygon ? 3 : 2
        guard shape.rings.allSatisfy({ $0.count >= least }) else { return nil }
        return shape
    }

    public static func decode(_ text: String) -> Shape? {
        var text = text
        return text.withUTF8 { decode($0) }
    }
}

/// The bounds every shape is held to, whoever gives it: a limit on the work one shape can make
/// a refresh or a `check` do.
public enum ShapeLimits {
    /// Vertices in one feature. Parks and districts have hundreds to tens of thousands.
    public static let maximumVertices = 100_000
}
