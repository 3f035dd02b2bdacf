/// A strict HTTP/1.1 request-head parser (RFC 9112), for a read-only server.
///
/// Strict where leniency is what request smuggling and cache poisoning feed on: lines end in
/// CRLF only (a bare CR or LF is an error), no whitespace between a field name and its colon,
/// no folded lines, exactly one `Host`, no `Transfer-Encoding`, one `Content-Length` at most and
/// it must be 0 (this server takes no request bodies). Every error names a status and closes the
/// connection.
public struct HTTPRequestParser: Sendable {
    public struct Limits: Sendable {
        /// The whole head, request line and fields (431 past it).
        public var maxHeadBytes = 64 * 1024
        /// The request target (414 past it).
        public var maxTargetBytes = 8 * 1024
        /// Header fields (431 past it).
        public var maxFields = 100
        /// Empty lines before the request line (RFC 9112 §2.2 asks to ignore at least one);
        /// more are a 400, and they count toward `maxHeadBytes`.
        public var maxLeadingEmptyLines = 4
        public init() {}
    }

    public enum Outcome: Sendable, Equatable {
        /// More bytes are needed.
        case incomplete
        /// A whole head, and the bytes it took (leading blank lines included).
        case head(HTTPRequestHead, consumed: Int)
    }

    public var limits: Limits
    public init(limits: Limits = Limits()) { self.limits = limits }

    public func parse(_ bytes: [UInt8]) throws(HTTPError) -> Outcome {
        var scanned = 0
        return try parse(bytes, scanned: &scanned)
    }

    /// Parses what has arrived of a head; `scanned` (0 for a new head) is how far earlier calls
    /// over the same bytes looked, and is moved on when the head is still incomplete, so a head
    /// that arrives a few bytes at a time is scanned once, not once per read.
    public func parse(_ bytes: [UInt8], scanned: inout Int) throws(HTTPError) -> Outcome {
        try bytes.withUnsafeBufferPointer { buffer throws(HTTPError) in try parse(buffer, scanned: &scanned) }
    }

    public func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> Outcome {
        var scanned = 0
        return try parse(buffer, scanned: &scanned)
    }

    public func parse(_ buffer: UnsafeBufferPointer<UInt8>, scanned: inout Int) throws(HTTPError) -> Outcome {
        // RFC 9112 §2.2: empty lines before the request line are ignored, a few of them.
        var start = 0
        while start + 1 < buffer.count && buffer[start] == .cr && buffer[start + 1] == .lf {
            start += 2
            guard start / 2 <= limits.maxLeadingEmptyLines else {
                throw HTTPError(.badRequest, "more than \(limits.maxLeadingEmptyLines) empty lines before the request line")
            }
        }
        if start < buffer.count && buffer[start] == .lf { throw HTTPError(.badRequest, "a line ends in LF without CR") }
        // What earlier calls looked at needs no second look: the end of the head is searched
        // from three bytes before, line endings from one.
        let resume = Swift.max(start, Swift.min(scanned, buffer.count))

        guard let headEnd = Self.endOfHead(buffer, from: Swift.max(start, resume - 3)) else {
            // Not complete yet: refuse now what can be refused, rather than wait for more.
            try Self.checkLineEndings(buffer, from: Swift.max(start, resume - 1), to: buffer.count)
            defer { scanned = buffer.count }
            if let lineEnd = Self.lineEnd(buffer, from: start, limit: buffer.count) {
                _ = try requestLine(UnsafeBufferPointer(rebasing: buffer[start..<lineEnd]))
            } else if buffer.count - start > limits.maxTargetBytes + 32 {
                throw HTTPError(.uriTooLong, "the request line is longer than \(limits.maxTargetBytes + 32) bytes")
            }
            if buffer.count > limits.maxHeadBytes {
                throw HTTPError(.headerFieldsTooLarge, "the request head is longer than \(limits.maxHeadBytes) bytes")
            }
            return .incomplete
        }
        scanned = 0
        if headEnd + 4 > limits.maxHeadBytes {
            throw HTTPError(.headerFieldsTooLarge, "the request head is longer than \(limits.maxHeadBytes) bytes")
        }
        try Self.checkLineEndings(buffer, from: start, to: headEnd)

        // The request line, then one field a line up to the blank line.
        guard let firstEnd = Self.lineEnd(buffer, from: start, limit: headEnd + 2) else { throw HTTPError(.badRequest, "no request line") }
        var head = try requestLine(UnsafeBufferPointer(rebasing: buffer[start..<firstEnd]))
        var lineStart = firstEnd + 2
        var fields: [(name: String, value: String)] = []
        while lineStart < headEnd + 2 {
            guard let end = Self.lineEnd(buffer, from: lineStart, limit: headEnd + 2) else { break }
            guard fields.count < limits.maxFields else { throw HTTPError(.headerFieldsTooLarge, "more than \(limits.maxFields) header fields") }
            fields.append(try Self.field(UnsafeBufferPointer(rebasing: buffer[lineStart..<end])))
            lineStart = end + 2
        }
        head.setHeaders(fields)
        try Self.checkFraming(head)
        return .head(head, consumed: headEnd + 4)
    }

    /// The index of the CRLFCRLF that ends the head, if the buffer holds it.
    static func endOfHead(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard buffer.count >= start + 4 else { return nil }
        var i = start
        while i + 3 < buffer.count {
            if buffer[i + 3] != .lf { i += buffer[i + 3] == .cr ? 1 : 4; continue }
            if buffer[i] == .cr && buffer[i + 1] == .lf && buffer[i + 2] == .cr { return i }
            i += 1
        }
        return nil
    }

    /// The index of the CR of the first CRLF at or after `start`, before `limit`.
    static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Int? {
        var i = start
        while i + 1 < limit {
            if buffer[i] == .cr && buffer[i + 1] == .lf { return i }
            i += 1
        }
        return nil
    }

    /// Every CR is followed by LF and every LF preceded by CR.
    static func checkLineEndings(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) throws(HTTPError) {
        for i in start..<end {
            if buffer[i] == .lf && (i == 0 || buffer[i - 1] != .cr) { throw HTTPError(.badRequest, "a line ends in LF without CR") }
            if buffer[i] == .cr && (i + 1 >= buffer.count || buffer[i + 1] != .lf) {
                if i + 1 < buffer.count { throw HTTPError(.badRequest, "a CR not followed by LF") }
            }
        }
    }

    /// method SP request-target SP HTTP-version.
    func requestLine(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> HTTPRequestHead {
        guard let firstSpace = line.firstIndex(of: .space),
              let secondSpace = line[(firstSpace + 1)...].firstIndex(of: .space),
              firstSpace > 0, secondSpace > firstSpace + 1, !line[(secondSpace + 1)...].contains(.space) else {
            throw HTTPError(.badRequest, "the request line is not METHOD TARGET HTTP/1.1")
        }
        let minorVersion = try Self.version(line[(secondSpace + 1)...])
        let methodBytes = line[..<firstSpace]
        guard methodBytes.allSatisfy(\.isTokenCharacter) else { throw HTTPError(.badRequest, "the method is not a token") }
        let method: HTTPRequestHead.Method
        if methodBytes.elementsEqual("GET".utf8) { method = .get }
        else if methodBytes.elementsEqual("HEAD".utf8) { method = .head }
        else if methodBytes.elementsEqual("OPTIONS".utf8) { method = .options }
        else {
            throw HTTPError(.methodNotAllowed, "\(String(decoding: methodBytes, as: UTF8.self)) is not served: this server is read-only (GET, HEAD, OPTIONS)")
        }
        let target = line[(firstSpace + 1)..<secondSpace]
        guard target.count <= limits.maxTargetBytes else {
            throw HTTPError(.uriTooLong, "the request target is longer than \(limits.maxTargetBytes) bytes")
        }
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPError(.badRequest, "the request target holds a byte that must be percent-encoded")
        }
        if target.first == UInt8(ascii: "/") && !target.contains(UInt8(ascii: "#")) {
            return try Self.originForm(target, method: method, minorVersion: minorVersion)
        }
        var origin = Array(target)
        if origin == [UInt8(ascii: "*")] {
            guard method == .options else { throw HTTPError(.badRequest, "* is a target only for OPTIONS") }
            return HTTPRequestHead(method: method, path: "*", query: [], minorVersion: minorVersion, headers: [])
        }
        // absolute-form (RFC 9112 §3.2.2): the server must accept it; the authority is ignored
        // here and Host is still required.
        if origin.first != UInt8(ascii: "/") {
            let text = String(decoding: origin, as: UTF8.self).lowercased()
            guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
                throw HTTPError(.badRequest, "the request target is neither a path nor an http URL")
            }
            let afterScheme = origin.dropFirst(text.hasPrefix("http://") ? 7 : 8)
            origin = afterScheme.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }).map { Array(afterScheme[$0...]) } ?? [UInt8(ascii: "/")]
            if origin.first == UInt8(ascii: "?") { origin.insert(UInt8(ascii: "/"), at: 0) }
        }
        if let fragment = origin.firstIndex(of: UInt8(ascii: "#")) { origin.removeSubrange(fragment...) }
        return try origin.withUnsafeBufferPointer { buffer throws(HTTPError) in
            try Self.originForm(buffer[...], method: method, minorVersion: minorVersion)
        }
    }

    /// "/path?query", split and decoded.
    static func originForm(_ target: Slice<UnsafeBufferPointer<UInt8>>, method: HTTPRequestHead.Method, minorVersion: Int) throws(HTTPError) -> HTTPRequestHead {
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let path = try PercentDecoding.decode(target[..<(question ?? target.endIndex)], plusIsSpace: false, what: "the path")
        let query = try question.map { index throws(HTTPError) in try PercentDecoding.query(target[(index + 1)...]) } ?? []
        return HTTPRequestHead(method: method, path: path, query: query, minorVersion: minorVersion, headers: [])
    }

    static func version(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws(HTTPError) -> Int {
        let base = bytes.startIndex
        guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8), bytes[base + 6] == UInt8(ascii: "."),
              let major = bytes[base + 5].digitValue, let minor = bytes[base + 7].digitValue else {
            throw HTTPError(.badRequest, "the request line does not end in an HTTP version")
        }
        guard major == 1 else { throw HTTPError(.versionNotSupported, "HTTP/\(major).\(minor) is not served; use HTTP/1.1") }
        return minor
    }

    /// field-name ":" OWS field-value OWS.
    static func field(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> (name: String, value: String) {
        if let first = line.first, first == .space || first == .tab {
            throw HTTPError(.badRequest, "a folded header line (obsolete line folding is not accepted)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw HTTPError(.badRequest, "a header line without a colon") }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(\.isTokenCharacter) else {
            throw HTTPError(.badRequest, "a header name that is not a token (no space is allowed before the colon)")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == .space || byte == .tab { value = value.dropFirst() }
        while let byte = value.last, byte == .space || byte == .tab { value = value.dropLast() }
        guard value.allSatisfy({ $0 == .tab || $0 >= 0x20 && $0 != 0x7F }) else {
            throw HTTPError(.badRequest, "a header value holds a control character")
        }
        let lowercased = String(unsafeUninitializedCapacity: name.count) { out in
            for (i, byte) in name.enumerated() { out[i] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
            return name.count
        }
        return (lowercased, String(decoding: value, as: UTF8.self))
    }

    /// Host, Content-Length and Transfer-Encoding: where a request's end is, which must not be
    /// open to two readings.
    static func checkFraming(_ head: HTTPRequestHead) throws(HTTPError) {
        var hosts = 0
        var lengths: [String] = []
        var encodings = 0
        for field in head.headers {
            switch field.name {
            case "host": hosts += 1
            case "content-length": lengths.append(field.value)
            case "transfer-encoding": encodings += 1
            default: break
            }
        }
        if head.minorVersion >= 1 && hosts != 1 || hosts > 1 {
            throw HTTPError(.badRequest, hosts == 0 ? "no Host header (HTTP/1.1 requires one)" : "more than one Host header")
        }
        if encodings > 0 {
            if !lengths.isEmpty { throw HTTPError(.badRequest, "both Transfer-Encoding and Content-Length") }
            throw HTTPError(.notImplemented, "Transfer-Encoding is not accepted: requests to this server have no body")
        }
        if lengths.count > 1 { throw HTTPError(.badRequest, "more than one Content-Length header") }
        if let length = lengths.first {
            guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw HTTPError(.badRequest, "Content-Length is not a number: '\(length)'")
            }
            guard length.utf8.allSatisfy({ $0 == 0x30 }) else {
                throw HTTPError(.contentTooLarge, "requests to this server have no body (Content-Length \(length))")
            }
        }
    }
}

extension UInt8 {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// tchar (RFC 9110 §5.6.2).
    var isTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(self)
        }
    }

    var digitValue: Int? { self >= 0x30 && self <= 0x39 ? Int(self - 0x30) : nil }
}
