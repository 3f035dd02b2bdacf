import AreasControl
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// The README's nginx server block, as written, in front of a real areasd: TLS at nginx,
/// `proxy_pass` to areasd's HTTP socket, the cache keyed on the query string. Only the paths
/// and the port are changed (the certificate is made for the test).
@Suite(.serialized, .tags(.endToEnd), .offThePool, .enabled(if: nginxExampleTools != nil, "nginx, openssl or curl is missing (Tests/run.sh installs them)"), .timeLimit(.minutes(5)))
struct NginxExampleTests {
    static var tools: (nginx: String, openssl: String, curl: String)? { nginxExampleTools }

    struct NoNginxBlock: Error {}

    /// The ```nginx block of the README.
    static func readmeBlock() throws -> String {
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "```nginx\n"), let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex) else {
            throw NoNginxBlock()
        }
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test func theReadmesServerBlockServesAreasOverTLSAndCaches() throws {
        let tools = try #require(Self.tools)
        let folder = Fixtures.temporaryDirectory()
        let httpSocket = folder + "/http.sock"
        let daemon = try SampleDaemon(extra: #""http": {"socket": "\#(httpSocket)"}"#)
        defer { daemon.stop() }

        let certificate = try Binaries.run(tools.openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=areas.example.kr",
                                                           "-keyout", folder + "/privkey.pem", "-out", folder + "/fullchain.pem"])
        #expect(certificate.status == 0, "\(certificate.stderr)")
        let port = try freeLoopbackAddress().split(separator: ":")[1]
        var block = try Self.readmeBlock()
        // nginx makes its cache folder but not the folders above it: on this system, as the
        // package installs them, they must be there (Debian has no /var/cache/nginx).
        let cache = "/var/lib/nginx/areas"
        #expect(block.contains("proxy_cache_path \(cache) "))
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: (cache as NSString).deletingLastPathComponent, isDirectory: &isFolder) && isFolder.boolValue,
                "the nginx package made no \((cache as NSString).deletingLastPathComponent)")
        for (from, to) in [(cache, folder + "/cache"), ("unix:/run/areasd/http.sock", "unix:" + httpSocket),
                           ("listen 443 ssl", "listen 127.0.0.1:\(port) ssl"), ("/etc/ssl/areas/", folder + "/")] {
            #expect(block.contains(from), "the README's block no longer has \(from)")
            block = block.replacingOccurrences(of: from, with: to)
        }
        let temporaries = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "\($0)_temp_path \(folder)/\($0);" }.joined(separator: " ")
        let config = """
            daemon off; master_process off; worker_processes 1; pid \(folder)/nginx.pid; error_log \(folder)/error.log;
            events { worker_connections 64; }
            http { access_log off; \(temporaries)
            \(block)
            }
            """
        try config.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        let check = try Binaries.run(tools.nginx, ["-t", "-q", "-c", folder + "/nginx.conf", "-p", folder])
        #expect(check.status == 0, "nginx -t: \(check.stderr)")
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: tools.nginx)
        nginx.arguments = ["-c", folder + "/nginx.conf", "-p", folder]
        try nginx.run()
        // Killed outright: started from a test thread, nginx (without its master process) inherits
        // a signal mask that blocks SIGTERM.
        defer { kill(nginx.processIdentifier, SIGKILL); nginx.waitUntilExit() }
        #expect(DaemonQuestions.waitUntil(seconds: 10) { (try? Sockets.connectTCP("127.0.0.1:\(port)"))?.close() != nil })

        func curl(_ target: String, _ extra: [String] = []) throws -> (head: String, body: String) {
            let headFile = folder + "/head.txt"
            let run = try Binaries.run(tools.curl, ["-sk", "--http1.1", "-D", headFile] + extra + ["https://127.0.0.1:\(port)\(target)"])
            #expect(run.status == 0, "\(run.stderr)")
            return ((try? String(contentsOfFile: headFile, encoding: .utf8)) ?? "", run.stdout)
        }
        let target = "/v1/near?lat=37.53&lon=126.97&k=3"
        let expected = String(decoding: try AreasClient(path: daemon.socket).send(Array(#"{"op":"near","lat":37.53,"lon":126.97,"k":3}"#.utf8)), as: UTF8.self) + "\n"
        let first = try curl(target)
        #expect(first.body == expected)
        #expect(first.head.lowercased().contains("x-cache-status: miss"), "\(first.head)")
        let second = try curl(target)
        #expect(second.body == expected && second.head.lowercased().contains("x-cache-status: hit"), "\(second.head)")
        // The same URL as GeoJSON is another variant (Vary: Accept), not the cached JSON.
        let geojson = try curl(target, ["-H", "Accept: application/geo+json"])
        #expect(geojson.body.hasPrefix(#"{"type":"FeatureCollection""#), "\(geojson.body.prefix(80))")
        #expect(try curl("/healthz").head.hasPrefix("HTTP/1.1 200"))
        #expect(try curl("/metrics").body.contains("areas_build_info"))
        #expect(try curl("/v1/nera").head.hasPrefix("HTTP/1.1 404"))
    }
}

private let nginxExampleTools: (nginx: String, openssl: String, curl: String)? = {
    func find(_ name: String) -> String? {
        ["/usr/sbin/", "/usr/bin/", "/usr/local/sbin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    guard let nginx = find("nginx"), let openssl = find("openssl"), let curl = find("curl") else { return nil }
    return (nginx, openssl, curl)
}()
