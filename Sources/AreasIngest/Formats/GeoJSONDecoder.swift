import AreasCore
import Foundation

/// Reads a GeoJSON FeatureCollection as one page: each feature a row of its `properties`
/// (values as text, as `json-rows` reads them), with its geometry checked and written into the
/// row (`ShapeText`), and the position it is served at.
///
/// Points are positions; a MultiPoint gives one row per point. Polygons (holes kept),
/// MultiPolygons, LineStrings and MultiLineStrings become the row's shape, served at a point
/// inside it (a polygon's) or on it (a line's). A feature whose geometry cannot be used is
/// kept as a row that says why (`GeoJSONDecoder.rejectionKey`), so the refresh counts it.
///
/// Coordinates are read straight into fixed point, never into a tree of JSON values, and a
/// feature past `ShapeLimits.maximumVertices` stops being stored at that count: a file's memory
/// is bounded by its size, and a hostile one's by the limits.
package struct GeoJSONDecoder: PageDecoder {
    /// The row's served position as `latitude, longitude` (read by the validator as a pair
    /// column, then dropped from the record).
    package static let positionKey = "\u{1}position"
    /// Why the feature's geometry cannot be used (a `RecordValidator.Rejection`'s text).
    package static let rejectionKey = "\u{1}rejected"
    /// Present when the feature's polygon touched or crossed itself and was repaired.
    package static let repairedKey = "\u{1}repaired"

    typealias Rejection = RecordValidator.Rejection

    package init() {}

    package func decode(_ body: [UInt8]) throws(UpstreamError) -> UpstreamPage {
        var records: [[Field]] = []
        try body.withUnsafeBufferPointer { (bytes) throws(UpstreamError) in
            var reader = Reader(bytes: bytes)
            do throws(Reader.Failure) {
                try reader.skipSpace()
                guard reader.peek == UInt8(ascii: "{") else { throw Reader.Failure(offset: reader.offset, reason: "not a JSON object (a FeatureCollection)") }
                var type: String?
                var sawFeatures = false
                try reader.object { key, reader throws(Reader.Failure) in
                    switch key {
                    case "type": type = try reader.string()
                    case "features":
                        sawFeatures = true
                        try reader.array { reader throws(Reader.Failure) in records.append(contentsOf: try Self.feature(&reader)) }
                    default: try reader.skipValue()
                    }
                }
                guard type == "FeatureCollection" else { throw Reader.Failure(offset: 0, reason: "a GeoJSON object of type \(type.map { "'\($0)'" } ?? "none"), not a FeatureCollection") }
                guard sawFeatures else { throw Reader.Failure(offset: 0, reason: "a FeatureCollection without \"features\"") }
            } catch {
                throw .malformedPage("invalid GeoJSON at byte \(error.offset): \(error.reason)")
            }
        }
        return UpstreamPage(records: records, totalCount: nil)
    }

    /// One feature's rows: none for a feature without properties or geometry worth a row.
    static func feature(_ reader: inout Reader) throws(Reader.Failure) -> [[Field]] {
        var properties: [Field] = []
        var geometry: Geometry?
        var problem: Rejection?
        try reader.object { key, reader throws(Reader.Failure) in
            switch key {
            case "properties":
                if reader.peek == UInt8(ascii: "n") { try reader.skipValue(); return }
                try reader.object { key, reader throws(Reader.Failure) in
                    properties.append(Field(key.collapsingWhitespace, try reader.text()))
                }
            case "geometry":
                if reader.peek == UInt8(ascii: "n") { try reader.skipValue(); return }
                switch try Geometry.read(&reader) {
                case .success(let read): geometry = read
                case .failure(let reason): problem = reason
                }
            default: try reader.skipValue()
            }
        }
        properties.sort { $0.key < $1.key }
        func rejected(_ reason: Rejection) -> [[Field]] { [properties + [Field(rejectionKey, reason.rawValue)]] }
        if let problem { return rejected(problem) }
        guard let geometry else { return rejected(.noGeometry) }
        switch geometry.usable() {
        case .failure(let reason): return rejected(reason)
        case .success(let usable):
            switch usable {
            case .points(let points):
                return points.map { properties + [Field(positionKey, Self.pair($0))] }
            case .shape(let shape, let at, let repaired):
                return [properties + [Field(ShapeText.fieldKey, ShapeText.encode(shape)), Field(positionKey, Self.pair(at))]
                        + (repaired ? [Field(repairedKey, "")] : [])]
            }
        }
    }

    static func pair(_ point: GeoPoint) -> String { "\(point.latitude), \(point.longitude)" }
}
