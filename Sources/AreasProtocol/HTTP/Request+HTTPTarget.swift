extension Request {
    /// The `GET` target that asks this request over HTTP (`/v1/near?lat=37.53&lon=126.97&k=3`):
    /// what `HTTPRoute.route` reads back as the same request. Nil for `refresh`, which the
    /// read-only HTTP front door does not take.
    public var httpTarget: String? {
        switch operation.endpoint {
        case .query(let path):
            let parameters = values.map { field, value in field.name + "=" + Self.percentEncoded(value.queryText) }
            return parameters.isEmpty ? path : path + "?" + parameters.joined(separator: "&")
        case .resource(let prefix, let field):
            guard let (_, value) = values.first(where: { $0.0 == field }) else { return nil }
            return prefix + Self.percentEncoded(value.queryText)
        case .route(let path):
            return path
        case .socketOnly:
            return nil
        }
    }

    /// Everything but the unreserved characters of RFC 3986 as `%XX` of its UTF-8.
    public static func percentEncoded(_ text: String) -> String {
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
