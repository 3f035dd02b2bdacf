import AreasProtocol

extension HTTPRequestHead {
    /// The scheme and host a client reached the daemon by, for the links a document gives (the
    /// TileJSON's tile URL, the OGC API's links): what a proxy forwards (`X-Forwarded-Proto`,
    /// `X-Forwarded-Host`) or the request's `Host`; nil when none is a plain host name (then the
    /// links are paths).
    var publicOrigin: String? {
        func plain(_ text: String?) -> String? {
            guard let text, !text.isEmpty, text.utf8.count <= 255,
                  text.utf8.allSatisfy({ $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || ".-:[]".utf8.contains($0)) })
            else { return nil }
            return text
        }
        guard let host = plain(header("x-forwarded-host")?.split(separator: ",").first.map(String.init)) ?? plain(header("host")) else { return nil }
        let scheme = header("x-forwarded-proto") == "https" ? "https" : "http"
        return "\(scheme)://\(host)"
    }
}
