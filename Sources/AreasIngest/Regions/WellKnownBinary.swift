import AreasCore

/// Reads the polygons of one Well-Known Binary geometry (a Polygon or a MultiPolygon, two
/// dimensions, either byte order), as the boundary data stores each region: every count is
/// checked against the bytes left before anything is allocated for it, every ring must be
/// closed and every position on the globe.
struct WellKnownBinary {
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The polygons of the geometry that `bytes` holds whole, each its outer ring then its
    /// holes (rings not closed: the last position, equal to the first, is dropped).
    static func polygons(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> [[[ShapeVertex]]] {
        var reader = WellKnownBinary(bytes)
        let polygons = try reader.geometry()
        guard reader.offset == bytes.count else { throw Failure("\(bytes.count - reader.offset) bytes after the geometry") }
        return polygons
    }

    private mutating func geometry() throws(Failure) -> [[[ShapeVertex]]] {
        let littleEndian = try byteOrder()
        switch try integer(littleEndian) {
        case 3:
            return [try polygon(littleEndian)]
        case 6:
            let count = try count(littleEndian, each: 9, what: "polygons")
            var polygons: [[[ShapeVertex]]] = []
            polygons.reserveCapacity(count)
            for _ in 0..<count {
                let partOrder = try byteOrder()
                let type = try integer(partOrder)
                guard type == 3 else { throw Failure("a multipolygon's part of geometry type \(type), not a polygon (3)") }
                polygons.append(try polygon(partOrder))
            }
            return polygons
        case let type:
            throw Failure("geometry type \(type) (\(Self.typeName(type))): a region is a Polygon (3) or MultiPolygon (6) in two dimensions")
        }
    }

    private mutating func polygon(_ littleEndian: Bool) throws(Failure) -> [[ShapeVertex]] {
        let ringCount = try count(littleEndian, each: 4 + 4 * 16, what: "rings")
        guard ringCount > 0 else { throw Failure("a polygon without rings") }
        var rings: [[ShapeVertex]] = []
        rings.reserveCapacity(ringCount)
        for _ in 0..<ringCount {
            let pointCount = try count(littleEndian, each: 16, what: "positions")
            guard pointCount >= 4 else { throw Failure("a ring of \(pointCount) positions (a closed ring has at least 4)") }
            var ring: [ShapeVertex] = []
            ring.reserveCapacity(pointCount - 1)
            var first = (0.0, 0.0), last = (0.0, 0.0)
            for i in 0..<pointCount {
                let longitude = double(littleEndian), latitude = double(littleEndian)
                guard longitude.isFinite, latitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
                    throw Failure("a position off the globe (\(latitude), \(longitude))")
                }
                if i == 0 { first = (longitude, latitude) }
                last = (longitude, latitude)
                if i < pointCount - 1 { ring.append(ShapeVertex(GeoPoint(uncheckedLatitude: latitude, longitude: longitude))) }
            }
            guard first == last else { throw Failure("a ring that does not end where it starts") }
            rings.append(ring)
        }
        return rings
    }

    private mutating func byteOrder() throws(Failure) -> Bool {
        guard offset < bytes.count else { throw Failure("the geometry ends before its byte order") }
        let order = bytes[offset]
        offset += 1
        guard order <= 1 else { throw Failure("byte order \(order), neither 0 (big-endian) nor 1 (little-endian)") }
        return order == 1
    }

    private mutating func integer(_ littleEndian: Bool) throws(Failure) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw Failure("the geometry ends inside a number at byte \(offset)") }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return littleEndian ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
    }

    /// A count of items of at least `each` bytes, no more than the bytes left can hold.
    private mutating func count(_ littleEndian: Bool, each: Int, what: String) throws(Failure) -> Int {
        let count = Int(try integer(littleEndian))
        guard count <= (bytes.count - offset) / each else {
            throw Failure("\(count) \(what) at byte \(offset - 4), more than the \(bytes.count - offset) bytes left can hold")
        }
        return count
    }

    /// A coordinate; `count` checked that the bytes are there.
    private mutating func double(_ littleEndian: Bool) -> Double {
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: littleEndian ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw))
    }

    private static func typeName(_ type: UInt32) -> String {
        let names = [1: "Point", 2: "LineString", 3: "Polygon", 4: "MultiPoint", 5: "MultiLineString", 6: "MultiPolygon", 7: "GeometryCollection"]
        if let name = names[Int(type)] { return name }
        if type & 0xE000_0000 != 0 { return "extended WKB with an SRID or more dimensions" }
        if let name = names[Int(type % 1000)] { return "\(name) with \(type / 1000 == 1 ? "Z" : type / 1000 == 2 ? "M" : "ZM")" }
        return "unknown"
    }
}
