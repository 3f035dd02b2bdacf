/// "HOST:PORT" as the `http.listen` config key writes it: an IPv4 address, `localhost`, or an
/// IPv6 address in brackets, and a port from 0 to 65535.
package enum TCPAddress {
    package struct Invalid: Error, CustomStringConvertible {
        package var address: String
        package var reason: String
        package var description: String { "'\(address)' is not HOST:PORT (\(reason)); e.g. 127.0.0.1:8080 or [::1]:8080" }
    }

    package static func parse(_ text: String) throws(Invalid) -> (host: String, port: UInt16) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw Invalid(address: text, reason: "an IPv6 address goes in brackets, then :PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw Invalid(address: text, reason: "no :PORT")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw Invalid(address: text, reason: "no host") }
        guard let port = UInt16(portText) else { throw Invalid(address: text, reason: "the port must be a number from 0 to 65535") }
        return (String(host), port)
    }

    /// Whether `host` is on this machine only (127.0.0.0/8, ::1, localhost).
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
