extension Request {
    /// The `GET` target that asks this request over HTTP (`/v1/near?lat=37.53&lon=126.97&k=3`):
    /// what `HTTPRoute.route` reads back as the same request. Nil for `refresh`, which the
    /// read-only HTTP front door does not take.
    public var httpTarget: String? {
        switch operation.endpoint {
        case .query(let path):
            guard case .object(let members)? = try? JSONParser.parse(line) else { return path }
            var parameters: [String] = []
            for (name, value) in members where name != "op" {
                guard let text = Self.queryText(value) else { continue }
                parameters.append(name + "=" + Self.percentEncoded(text))
            }
            return parameters.isEmpty ? path : path + "?" + parameters.joined(separator: "&")
        case .resource(let prefix, _):
            guard case .get(let id) = self else { return nil }
            return prefix + Self.percentEncoded(id)
        case .none:
            switch operation {
            case .health: return "/healthz"
            case .metrics: return "/metrics"
            default: return nil
            }
        }
    }

    /// A field's value as the HTTP parameters write it: a route as `LAT,LON;LAT,LON`, a point
    /// as `LAT,LON`.
    private static func queryText(_ value: JSONValue) -> String? {
        func number(_ value: JSONValue?) -> String {
            var writer = JSONWriter(capacity: 32)
            writer.number(value?.double ?? 0)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        switch value {
        case .null: return nil
        case .number: return number(value)
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let points): return points.map { $0.array.map(number).joined(separator: ",") }.joined(separator: ";")
        case .object: return number(value["lat"]) + "," + number(value["lon"])
        }
    }

    /// Everything but the unreserved characters of RFC 3986 as `%XX` of its UTF-8.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
