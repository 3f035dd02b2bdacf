import AreasCore

/// The city's hotspots (「서울시 주요 장소 영역」) as served: each one's code (`AREA_CD`), name
/// and polygons, indexed in the shared shape engine (owner = the hotspot's number).
///
/// Read from a GeoJSON FeatureCollection of Polygon or MultiPolygon features (holes kept) by
/// the decoder the sources use, so a hostile file meets the same limits: its size, a feature's
/// vertices, rings that cross themselves. A feature that cannot be used is left out and said
/// (`problems`); a file with none usable is refused.
package struct CrowdHotspots: Sendable {
    /// The largest places file read.
    package static let maximumFileBytes = 64 << 20
    /// The most hotspots kept (the city publishes 121).
    package static let maximumCount = 10_000

    package let codes: [String]
    package let names: [String]
    /// Each hotspot's polygons, for drawing, and the box around them.
    package let polygons: [Shape]
    package let boxes: [GeoBox]
    package let shapes: ShapeIndex
    /// Features left out, each with why.
    package let problems: [String]

    package var count: Int { codes.count }

    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "crowd places \(path): \(reason)" }
    }

    /// Reads the hotspots of the file at `path`.
    package init(path: String) throws(Failure) {
        let bytes: [UInt8]
        do throws(UpstreamError) {
            bytes = try FileTransport.read(path, maxBytes: Self.maximumFileBytes)
        } catch {
            if case .tooLarge(let size, let limit) = error { throw Failure(path: path, reason: "\(size) bytes, more than a places file may have (\(limit))") }
            throw Failure(path: path, reason: error.description)
        }
        try self.init(bytes: bytes, path: path)
    }

    package init(bytes: [UInt8], path: String) throws(Failure) {
        let rows: [[Field]]
        do throws(UpstreamError) {
            rows = try GeoJSONDecoder().decode(bytes).records
        } catch {
            throw Failure(path: path, reason: error.description)
        }
        var codes: [String] = []
        var names: [String] = []
        var shapes: [(owner: UInt32, shape: Shape, widthMeters: Double)] = []
        var problems: [String] = []
        var seen: Set<String> = []
        for (number, row) in rows.enumerated() {
            func value(_ keys: String...) -> String? {
                for key in keys { if let field = row.first(where: { $0.key == key }), !field.value.isEmpty { return field.value } }
                return nil
            }
            let label = "feature \(number + 1)"
            guard let code = value("AREA_CD", "cd"), Self.isCode(code) else {
                problems.append("\(label): no AREA_CD (or cd) of letters, digits, '-' or '_' (at most 32)")
                continue
            }
            if let rejected = value(GeoJSONDecoder.rejectionKey) {
                problems.append("\(label) (\(code)): \(rejected)")
                continue
            }
            guard let text = value(ShapeText.fieldKey), let shape = ShapeText.decode(text), shape.kind == .polygon else {
                problems.append("\(label) (\(code)): not a Polygon or MultiPolygon")
                continue
            }
            guard seen.insert(code).inserted else {
                problems.append("\(label) (\(code)): a second hotspot with this code")
                continue
            }
            guard codes.count < Self.maximumCount else {
                problems.append("more than \(Self.maximumCount) hotspots: the rest are left out")
                break
            }
            shapes.append((UInt32(codes.count), shape, 0))
            codes.append(code)
            names.append(value("AREA_NM", "nm") ?? code)
        }
        guard !codes.isEmpty else {
            throw Failure(path: path, reason: "no usable hotspot" + (problems.isEmpty ? " (no features)" : ": " + problems.prefix(3).joined(separator: "; ")))
        }
        self.codes = codes
        self.names = names
        self.problems = problems
        self.polygons = shapes.map(\.shape)
        self.boxes = shapes.map(\.shape.box)
        self.shapes = ShapeIndex(shapes)
    }

    /// A code safe to put in a request's path as it is.
    static func isCode(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 32
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }

    /// The hotspot holding `point` (the first, should polygons overlap), or nil.
    package func hotspot(holding point: GeoPoint) -> Int? {
        var found: Int?
        _ = shapes.forEach(holding: point, measuringEdge: false) { hit in
            if found == nil || hit.owner < found ?? 0 { found = hit.owner }
        }
        return found
    }
}
