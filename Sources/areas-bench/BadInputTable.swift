import AreasControl
import AreasProtocol
import AreasSystem
import Foundation
import Glibc

/// `areas-bench bad-input [--socket PATH] [--markdown]`: sends every bad input we know of to an
/// areasd (a running one, or one it starts on the bundled samples) and prints what each gets,
/// checking after each that the daemon still answers a good request. `--markdown` prints the
/// section of Tests/README.md, with the data's age (the one figure that moves between runs)
/// left out so that the table changes only when an answer does.
struct BadInputTable {
    let socket: String?
    let markdown: Bool

    init(arguments: inout ArgumentList) throws {
        socket = try arguments.value("--socket")
        markdown = arguments.flag("--markdown")
        _ = try arguments.positionals()
    }

    func run() throws {
        if let socket { return try table(socket: socket) }
        let directory = NSTemporaryDirectory() + "areas-bad-input-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let areasd = try BuiltBeside.program("areasd")
        let socket = directory + "/areasd.sock"
        let daemon = try Child(
            areasd, ["--config", "config/areasd.json", "--socket", socket, "--snapshot", directory + "/areas.snapshot", "--log-level", "error"])
        defer { daemon.stop() }
        guard DaemonHarness.waitReady(socket) else {
            throw UsageError.wrongArguments("areasd on config/areasd.json did not load its data in 10 s (run from the package folder)")
        }
        try table(socket: socket)
    }

    static let lines: [(String, [UInt8])] = {
        func t(_ s: String) -> [UInt8] { Array(s.utf8) }
        return [
            ("truncated JSON", t("{")),
            ("a lone brace", t("}")),
            ("an array", t("[]")),
            ("null", t("null")),
            ("a bare string", t(#""near""#)),
            ("an empty object", t("{}")),
            ("op not a string", t(#"{"op":1}"#)),
            ("unknown op", t(#"{"op":"fly"}"#)),
            ("near without lat", t(#"{"op":"near","lon":127}"#)),
            ("lat as text", t(#"{"op":"near","lat":"37.5","lon":127}"#)),
            ("lat 91", t(#"{"op":"near","lat":91,"lon":127}"#)),
            ("lat just below -90", t(#"{"op":"near","lat":-90.0000001,"lon":127}"#)),
            ("lon 180.5", t(#"{"op":"near","lat":37,"lon":180.5}"#)),
            ("NaN", t(#"{"op":"near","lat":NaN,"lon":127}"#)),
            ("Infinity", t(#"{"op":"near","lat":Infinity,"lon":127}"#)),
            ("1e999 (overflows a double)", t(#"{"op":"near","lat":1e999,"lon":127}"#)),
            ("a 400-digit number", t(#"{"op":"near","lat":37,"lon":127,"k":\#(String(repeating: "9", count: 400))}"#)),
            ("k = -1", t(#"{"op":"near","lat":37,"lon":127,"k":-1}"#)),
            ("k beyond the cap", t(#"{"op":"near","lat":37,"lon":127,"k":10001}"#)),
            ("k = 1.5", t(#"{"op":"near","lat":37,"lon":127,"k":1.5}"#)),
            ("negative radius", t(#"{"op":"radius","lat":37,"lon":127,"meters":-1}"#)),
            ("radius beyond the Earth", t(#"{"op":"radius","lat":37,"lon":127,"meters":1e10}"#)),
            ("south above north", t(#"{"op":"bbox","south":38,"west":126,"north":37,"east":127}"#)),
            ("west east of east", t(#"{"op":"bbox","south":37,"west":128,"north":38,"east":127}"#)),
            ("unknown kind", t(#"{"op":"near","lat":37,"lon":127,"kind":"cigars"}"#)),
            ("unknown output", t(#"{"op":"near","lat":37,"lon":127,"output":"xml"}"#)),
            ("id as a number", t(#"{"op":"get","id":5}"#)),
            ("empty id", t(#"{"op":"get","id":""}"#)),
            ("unknown id", t(#"{"op":"get","id":"nope:0"}"#)),
            ("unicode escapes (valid: \\u0073moking)", t(#"{"op":"near","lat":37.5,"lon":127,"k":1,"kind":"\u0073moking","output":"count"}"#)),
            ("a lone surrogate escape", t(#"{"op":"get","id":"\ud800"}"#)),
            ("5,000 nested arrays", t(String(repeating: "[", count: 5000))),
            ("200 nested objects", t(String(repeating: #"{"a":"#, count: 200) + "1" + String(repeating: "}", count: 200))),
            ("trailing garbage", t(#"{"op":"health"} x"#)),
            ("a raw control character in a string", t("{\"op\":\"get\",\"id\":\"a\u{01}b\"}")),
            ("invalid UTF-8", [UInt8(ascii: "{"), UInt8(ascii: "\""), 0xFF, 0xFE, UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "1"), UInt8(ascii: "}")]),
            ("NUL bytes", [0, 0, 0, UInt8(ascii: "{"), UInt8(ascii: "}")]),
            ("a byte-order mark first", [0xEF, 0xBB, 0xBF] + t(#"{"op":"health"}"#)),
            ("duplicate keys (the last wins)", t(#"{"op":"stats","op":"health"}"#)),
            ("a route of 1,001 points", t(#"{"op":"along","meters":50,"path":[\#(Array(repeating: "[37.5,127]", count: 1001).joined(separator: ","))]}"#)),
            ("a route point out of range", t(#"{"op":"along","meters":50,"path":[[37.5,127],[95,127]]}"#)),
            ("an empty province", t(#"{"op":"near","lat":37,"lon":127,"province":""}"#)),
        ]
    }()

    private func table(socket: String) throws {
        if markdown {
            print("### Bad input on the socket\n")
            print("Generated by `swift run -c release areas-bench bad-input --markdown` (against areasd on the")
            print("bundled samples; `--socket PATH` asks a running one). Each line is sent on one connection,")
            print("which must still answer `health` after it. `…` stands for the data's age in seconds.\n")
        }
        print("| input | answer |")
        print("| --- | --- |")
        let client = try AreasClient(path: socket)
        var alive = 0
        for (name, bytes) in Self.lines {
            let answer = String(decoding: try client.send(bytes), as: UTF8.self)
            print("| \(name) | `\(cell(answer))` |")
            if (try? client.send(Request.health.line)) != nil { alive += 1 }
        }
        // Streams rather than single lines.
        var rows: [(String, String)] = []
        do {
            let fd = try Sockets.connectUnix(path: socket)
            defer { fd.close() }
            for byte in Array(#"{"op":"near","lat":37.53,"lon":126.97,"k":1,"output":"count"}"#.utf8) + [10] { try fd.writeAll([byte]) }
            rows.append(("a request split into one write per byte", cell(try Self.readLine(fd))))
            try fd.writeAll(Array(String(repeating: #"{"op":"health"}"# + "\n", count: 5000).utf8))
            var answered = 0
            for _ in 0..<5000 { if (try? Self.readLine(fd)) != nil { answered += 1 } }
            rows.append(("5,000 requests in one write", "\(answered) answers"))
            try fd.writeAll(Array("\r\n\n\n".utf8) + Request.health.line + [13, 10])
            rows.append(("blank lines and CRLF endings", cell(try Self.readLine(fd))))
        }
        do {
            let fd = try Sockets.connectUnix(path: socket)
            defer { fd.close() }
            var big = [UInt8](repeating: UInt8(ascii: " "), count: 10 * 1024 * 1024)
            big.append(10)
            try? fd.writeAll(big)
            rows.append(("a 10 MB line", cell((try? Self.readLine(fd)) ?? "") + " — then the connection is closed"))
        }
        do {
            // Never reads: the daemon blocks only on this connection; others still answer.
            let fd = try Sockets.connectUnix(path: socket)
            try fd.setNonBlocking()
            let flood = Array(String(repeating: #"{"op":"radius","lat":37.53,"lon":126.97,"meters":3000}"# + "\n", count: 20_000).utf8)
            _ = flood.withUnsafeBytes { try? fd.write($0) }
            let other = try AreasClient(path: socket)
            let fine = (try? other.send(Request.health.line)) != nil
            rows.append(("a client that sends 20,000 requests and never reads", fine ? "its own connection stalls; other clients are answered; closed after idleTimeoutSeconds" : "OTHER CLIENTS STALLED"))
            fd.close()
        }
        for (name, answer) in rows { print("| \(name) | \(answer.hasPrefix("{") ? "`\(answer)`" : answer) |") }
        print("")
        print("after each of the \(Self.lines.count) lines the same connection answered health: \(alive)/\(Self.lines.count)")
        if alive != Self.lines.count { throw UsageError.wrongArguments("the connection stopped answering after a bad line") }
    }

    static func readLine(_ fd: FileDescriptor) throws -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = try withUnsafeMutableBytes(of: &byte) { try fd.read(into: $0) }
            if n == 0 { return String(decoding: line, as: UTF8.self) }
            if byte == 10 { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    func cell(_ answer: String) -> String {
        var text = answer
        // What differs from run to run: the data's age and version.
        for (pattern, shown) in [(#""dataAgeSeconds":[0-9.]+"#, #""dataAgeSeconds":…"#), (#""version":"[0-9a-z-]+""#, #""version":"…""#)] where markdown {
            if let range = text.range(of: pattern, options: .regularExpression) { text.replaceSubrange(range, with: shown) }
        }
        let short = text.count > 150 ? String(text.prefix(147)) + "..." : text
        return short.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'")
    }
}
