/// A Mapbox Vector Tile (specification 2.1) of point features, encoded by hand: the
/// protobuf wire format needs varints, zigzag integers and length-prefixed fields, and no
/// package is needed for that.
///
/// A tile is layers; a layer has its features, and its property keys and values each stored
/// once and named by index from each feature's `tags`. A point's geometry is one MoveTo command
/// with the position in tile coordinates (0 to `extent`, x across and y down).
public struct VectorTileEncoder {
    /// One point and its properties, in the order they are given.
    public struct Feature {
        public var x: Int
        public var y: Int
        public var properties: [(String, Value)]

        public init(x: Int, y: Int, properties: [(String, Value)]) {
            self.x = x
            self.y = y
            self.properties = properties
        }
    }

    /// A property's value: text or a count.
    public enum Value: Hashable {
        case string(String)
        case count(UInt64)
    }

    public static let extent = 4096

    private var layers: [[UInt8]] = []

    public init() {}

    /// Adds a layer (one with no features is left out, as the specification allows).
    public mutating func layer(_ name: String, _ features: [Feature]) {
        guard !features.isEmpty else { return }
        var keys: [String] = []
        var keyIndex: [String: Int] = [:]
        var values: [Value] = []
        var valueIndex: [Value: Int] = [:]
        var layer = ProtobufWriter()
        layer.varint(field: 15, 2)  // version
        layer.bytes(field: 1, Array(name.utf8))
        for feature in features {
            var tags = ProtobufWriter()
            for (key, value) in feature.properties {
                let k = keyIndex[key] ?? { keys.append(key); keyIndex[key] = keys.count - 1; return keys.count - 1 }()
                let v = valueIndex[value] ?? { values.append(value); valueIndex[value] = values.count - 1; return values.count - 1 }()
                tags.rawVarint(UInt64(k))
                tags.rawVarint(UInt64(v))
            }
            var geometry = ProtobufWriter()
            geometry.rawVarint(1 | 1 << 3)  // MoveTo, one point
            geometry.rawVarint(ProtobufWriter.zigzag(Int64(feature.x)))
            geometry.rawVarint(ProtobufWriter.zigzag(Int64(feature.y)))
            var encoded = ProtobufWriter()
            if !feature.properties.isEmpty { encoded.bytes(field: 2, tags.bytes) }
            encoded.varint(field: 3, 1)  // POINT
            encoded.bytes(field: 4, geometry.bytes)
            layer.bytes(field: 2, encoded.bytes)
        }
        for key in keys { layer.bytes(field: 3, Array(key.utf8)) }
        for value in values {
            var encoded = ProtobufWriter()
            switch value {
            case .string(let text): encoded.bytes(field: 1, Array(text.utf8))
            case .count(let n): encoded.varint(field: 5, n)
            }
            layer.bytes(field: 4, encoded.bytes)
        }
        layer.varint(field: 5, UInt64(Self.extent))
        layers.append(layer.bytes)
    }

    public var isEmpty: Bool { layers.isEmpty }

    /// The tile: each layer as field 3 of the tile message.
    public var bytes: [UInt8] {
        var tile = ProtobufWriter()
        for layer in layers { tile.bytes(field: 3, layer) }
        return tile.bytes
    }
}

/// The protobuf wire format's pieces a vector tile needs.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    mutating func rawVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A varint field (wire type 0).
    mutating func varint(field: Int, _ value: UInt64) {
        rawVarint(UInt64(field << 3))
        rawVarint(value)
    }

    /// A length-delimited field (wire type 2): text, bytes, a message or packed varints.
    mutating func bytes(field: Int, _ value: [UInt8]) {
        rawVarint(UInt64(field << 3 | 2))
        rawVarint(UInt64(value.count))
        bytes += value
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
}
