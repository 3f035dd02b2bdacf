import AreasCore

/// One field's value in a request, typed. `Request.values` lists a request's fields as these,
/// and each encoding writes them in one place: a request line's JSON (`write(into:)`) and an
/// HTTP parameter's text (`queryText`), which `RequestField.value(fromText:)` reads back.
public enum RequestValue: Sendable, Equatable {
    case number(Double)
    case integer(Int)
    case text(String)
    case flag(Bool)
    /// A position: `{"lat": .., "lon": ..}` in JSON, `LAT,LON` as text.
    case point(GeoPoint)
    /// A route: `[[lat, lon], ...]` in JSON, `LAT,LON;LAT,LON;...` as text.
    case path([GeoPoint])

    /// The value as a request line's member writes it.
    public func write(into writer: inout JSONWriter) {
        switch self {
        case .number(let number): writer.number(number)
        case .integer(let number): writer.number(number)
        case .text(let text): writer.string(text)
        case .flag(let flag): writer.bool(flag)
        case .point(let point):
            writer.beginObject()
            writer.key("lat"); writer.number(point.latitude)
            writer.key("lon"); writer.number(point.longitude)
            writer.endObject()
        case .path(let points):
            writer.beginArray()
            for point in points {
                writer.beginArray()
                writer.number(point.latitude)
                writer.number(point.longitude)
                writer.endArray()
            }
            writer.endArray()
        }
    }

    /// The value as an HTTP parameter (or a command-line operand) writes it, numbers as JSON
    /// writes them.
    public var queryText: String {
        func text(_ number: Double) -> String {
            var writer = JSONWriter(capacity: 32)
            writer.number(number)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        switch self {
        case .number(let number): return text(number)
        case .integer(let number): return String(number)
        case .text(let value): return value
        case .flag(let flag): return flag ? "true" : "false"
        case .point(let point): return text(point.latitude) + "," + text(point.longitude)
        case .path(let points): return points.map { RequestValue.point($0).queryText }.joined(separator: ";")
        }
    }

    /// A decimal number as JSON writes one (optional sign, digits, fraction, exponent); not
    /// `nan`, `inf` or hex, which `Double(_:)` would take.
    public static func decimalNumber<Text: StringProtocol>(_ text: Text) -> Double? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65 }),
              bytes.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Double(String(text))
    }

    /// `LAT,LON` as two decimal numbers, unchecked for range (the request's checks name the
    /// field); nil when it is not two numbers.
    public static func decimalPair<Text: StringProtocol>(_ text: Text) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = decimalNumber(parts[0]), let second = decimalNumber(parts[1]) else { return nil }
        return (first, second)
    }
}

extension RequestField {
    /// What kind of value the field holds, which decides how its text is read.
    public enum Shape: Sendable {
        case number, text, flag, point, path
    }

    public var shape: Shape {
        switch self {
        case .lat, .lon, .k, .maxMeters, .meters, .limit, .south, .west, .north, .east, .zoom: return .number
        case .kind, .province, .district, .output, .id, .q, .since, .cursor: return .text
        case .wait, .force: return .flag
        case .previous: return .point
        case .path: return .path
        }
    }

    /// An HTTP parameter's text as the member a request line would carry, for the request
    /// parser's own checks. A number that is not one goes on as text, so the parser's message
    /// names the field and what it needs.
    public func value(fromText text: String) throws(RequestError) -> JSONValue {
        switch shape {
        case .number:
            return RequestValue.decimalNumber(text).map(JSONValue.number) ?? .string(text)
        case .text:
            return .string(text)
        case .flag:
            return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .point:
            guard let (lat, lon) = RequestValue.decimalPair(text) else {
                throw RequestError(.badRequest, "\(name) must be LAT,LON (decimal degrees), got '\(text)'")
            }
            return .array([.number(lat), .number(lon)])
        case .path:
            var points: [JSONValue] = []
            for point in text.split(separator: ";", omittingEmptySubsequences: false) {
                guard let (lat, lon) = RequestValue.decimalPair(point) else {
                    throw RequestError(.badRequest, "\(name) must be LAT,LON;LAT,LON;... (decimal degrees), got '\(point)'")
                }
                points.append(.array([.number(lat), .number(lon)]))
            }
            return .array(points)
        }
    }
}
