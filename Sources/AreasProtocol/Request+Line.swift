import AreasCore

extension Request {
    /// The request line that asks this request (without its newline): what areasctl sends and
    /// what the tests ask. A filter left at its default is left out, so the parser reads the
    /// line back as this very request.
    public var line: [UInt8] {
        var writer = JSONWriter(capacity: 128)
        write(into: &writer)
        return writer.bytes
    }

    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("op"); writer.string(operation.name)
        switch self {
        case .near(let point, let k, let maxMeters, let kind, let region, let output):
            writer.point(point)
            writer.field(.k, k)
            writer.field(.maxMeters, maxMeters)
            writer.filters(kind, region, output)
        case .radius(let point, let meters, let kind, let region, let limit, let output):
            writer.point(point)
            writer.field(.meters, meters)
            writer.field(.limit, limit)
            writer.filters(kind, region, output)
        case .bbox(let box, let kind, let region, let limit, let output):
            writer.field(.south, box.south)
            writer.field(.west, box.west)
            writer.field(.north, box.north)
            writer.field(.east, box.east)
            writer.field(.limit, limit)
            writer.filters(kind, region, output)
        case .check(let point, let region):
            writer.point(point)
            writer.region(region)
        case .along(let path, let meters, let kind, let region, let limit, let output):
            writer.fieldKey(.path)
            writer.beginArray()
            for point in path {
                writer.beginArray()
                writer.number(point.latitude)
                writer.number(point.longitude)
                writer.endArray()
            }
            writer.endArray()
            writer.field(.meters, meters)
            writer.field(.limit, limit)
            writer.filters(kind, region, output)
        case .get(let id):
            writer.field(.id, id)
        case .stats, .health, .metrics:
            break
        case .refresh(let wait, let force):
            writer.fieldKey(.wait); writer.bool(wait)
            writer.fieldKey(.force); writer.bool(force)
        }
        writer.endObject()
    }
}

extension JSONWriter {
    mutating func fieldKey(_ field: RequestField) { key(escaping: field.name) }

    mutating func field(_ field: RequestField, _ value: Double?) {
        guard let value else { return }
        fieldKey(field); number(value)
    }

    mutating func field(_ field: RequestField, _ value: Int?) {
        guard let value else { return }
        fieldKey(field); number(value)
    }

    mutating func field(_ field: RequestField, _ value: String?) {
        guard let value else { return }
        fieldKey(field); string(value)
    }

    mutating func point(_ point: GeoPoint) {
        field(.lat, point.latitude)
        field(.lon, point.longitude)
    }

    mutating func region(_ region: Region) {
        field(.province, region.province)
        field(.district, region.district)
    }

    mutating func filters(_ kind: KindFilter, _ region: Region, _ output: OutputMode) {
        if kind != .all { field(.kind, kind.rawValue) }
        self.region(region)
        if output != .full { field(.output, output.rawValue) }
    }
}
