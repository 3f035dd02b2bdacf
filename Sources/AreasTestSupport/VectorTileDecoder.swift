/// A reader of Mapbox Vector Tiles (2.1) for tests: the protobuf wire format read field by
/// field as the specification lays it out, written apart from the encoder, so that a mistake
/// in one is not repeated in the other.
package enum VectorTileDecoder {
    package struct Layer: Equatable {
        package var name = ""
        package var version = 1
        package var extent = 4096
        package var features: [Feature] = []
    }

    package struct Feature: Equatable {
        package var type = 0
        package var points: [(x: Int, y: Int)] = []
        package var properties: [String: Property] = [:]

        package static func == (a: Feature, b: Feature) -> Bool {
            a.type == b.type && a.properties == b.properties && a.points.map(\.x) == b.points.map(\.x) && a.points.map(\.y) == b.points.map(\.y)
        }
    }

    package enum Property: Equatable {
        case string(String)
        case integer(Int64)
        case double(Double)
        case bool(Bool)
    }

    package struct Malformed: Error, CustomStringConvertible {
        package var description: String
    }

    package static func decode(_ bytes: [UInt8]) throws -> [Layer] {
        var reader = Reader(bytes: bytes[...])
        var layers: [Layer] = []
        while let (field, wire) = try reader.key() {
            if field == 3 && wire == 2 { layers.append(try layer(reader.lengthDelimited())) } else { try reader.skip(wire) }
        }
        return layers
    }

    static func layer(_ bytes: ArraySlice<UInt8>) throws -> Layer {
        var reader = Reader(bytes: bytes)
        var layer = Layer()
        var keys: [String] = []
        var values: [Property] = []
        var raw: [(tags: [UInt64], type: Int, geometry: [UInt64])] = []
        while let (field, wire) = try reader.key() {
            switch (field, wire) {
            case (15, 0): layer.version = Int(truncatingIfNeeded: try reader.varint())
            case (1, 2): layer.name = String(decoding: try reader.lengthDelimited(), as: UTF8.self)
            case (2, 2): raw.append(try feature(reader.lengthDelimited()))
            case (3, 2): keys.append(String(decoding: try reader.lengthDelimited(), as: UTF8.self))
            case (4, 2): values.append(try value(reader.lengthDelimited()))
            case (5, 0): layer.extent = Int(truncatingIfNeeded: try reader.varint())
            default: try reader.skip(wire)
            }
        }
        for (tags, type, geometry) in raw {
            var feature = Feature(type: type)
            guard tags.count % 2 == 0 else { throw Malformed(description: "an odd number of tags") }
            for i in stride(from: 0, to: tags.count, by: 2) {
                guard tags[i] < UInt64(keys.count), tags[i + 1] < UInt64(values.count) else { throw Malformed(description: "a tag past the keys or values") }
                feature.properties[keys[Int(tags[i])]] = values[Int(tags[i + 1])]
            }
            // Commands: id & 0x7 (1 MoveTo), count >> 3, then zigzag deltas from the cursor.
            var cursor = (x: 0, y: 0)
            var i = 0
            while i < geometry.count {
                let command = geometry[i] & 0x7, count = Int(truncatingIfNeeded: geometry[i] >> 3)
                i += 1
                guard command == 1 else { throw Malformed(description: "command \(command) in a point feature") }
                guard count >= 0, count <= geometry.count else { throw Malformed(description: "a command repeated past the geometry") }
                for _ in 0..<count {
                    guard i + 1 < geometry.count else { throw Malformed(description: "a MoveTo without its parameters") }
                    cursor.x &+= Int(unzigzag(geometry[i]))
                    cursor.y &+= Int(unzigzag(geometry[i + 1]))
                    feature.points.append(cursor)
                    i += 2
                }
            }
            layer.features.append(feature)
        }
        return layer
    }

    static func feature(_ bytes: ArraySlice<UInt8>) throws -> (tags: [UInt64], type: Int, geometry: [UInt64]) {
        var reader = Reader(bytes: bytes)
        var result: (tags: [UInt64], type: Int, geometry: [UInt64]) = ([], 0, [])
        while let (field, wire) = try reader.key() {
            switch (field, wire) {
            case (2, 2): result.tags = try reader.packed()
            case (3, 0): result.type = Int(truncatingIfNeeded: try reader.varint())
            case (4, 2): result.geometry = try reader.packed()
            default: try reader.skip(wire)
            }
        }
        return result
    }

    static func value(_ bytes: ArraySlice<UInt8>) throws -> Property {
        var reader = Reader(bytes: bytes)
        var result = Property.bool(false)
        while let (field, wire) = try reader.key() {
            switch (field, wire) {
            case (1, 2): result = .string(String(decoding: try reader.lengthDelimited(), as: UTF8.self))
            case (3, 1): result = .double(Double(bitPattern: try reader.fixed64()))
            case (4, 0), (5, 0): result = .integer(Int64(bitPattern: try reader.varint()))
            case (6, 0): result = .integer(unzigzag(try reader.varint()))
            case (7, 0): result = .bool(try reader.varint() != 0)
            default: try reader.skip(wire)
            }
        }
        return result
    }

    static func unzigzag(_ n: UInt64) -> Int64 { Int64(bitPattern: n >> 1) ^ -Int64(bitPattern: n & 1) }

    struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = bytes.popFirst() {
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
                guard shift < 64 else { throw Malformed(description: "a varint longer than ten bytes") }
            }
            throw Malformed(description: "a varint cut short")
        }

        mutating func key() throws -> (Int, Int)? {
            guard !bytes.isEmpty else { return nil }
            let key = try varint()
            return (Int(key >> 3), Int(key & 7))
        }

        mutating func lengthDelimited() throws -> ArraySlice<UInt8> {
            let declared = try varint()
            guard declared <= UInt64(bytes.count) else { throw Malformed(description: "a field longer than its message") }
            let length = Int(declared)
            defer { bytes = bytes.dropFirst(length) }
            return bytes.prefix(length)
        }

        mutating func fixed64() throws -> UInt64 {
            guard bytes.count >= 8 else { throw Malformed(description: "a fixed64 cut short") }
            defer { bytes = bytes.dropFirst(8) }
            return bytes.prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func packed() throws -> [UInt64] {
            var inner = Reader(bytes: try lengthDelimited())
            var values: [UInt64] = []
            while !inner.bytes.isEmpty { values.append(try inner.varint()) }
            return values
        }

        mutating func skip(_ wire: Int) throws {
            switch wire {
            case 0: _ = try varint()
            case 1: _ = try fixed64()
            case 2: _ = try lengthDelimited()
            case 5:
                guard bytes.count >= 4 else { throw Malformed(description: "a fixed32 cut short") }
                bytes = bytes.dropFirst(4)
            default: throw Malformed(description: "wire type \(wire)")
            }
        }
    }
}
