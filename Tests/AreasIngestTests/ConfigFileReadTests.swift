import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasIngest
import AreasTestTraits

/// A config file that cannot be read is reported in the system's plain words, and a FIFO or a
/// folder at its path is refused without blocking.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ConfigFileReadTests {
    @Test func aMissingFileIsSaidInPlainWords() {
        let message = Self.loadError("/nonexistent/areasd.json")
        #expect(message == "/nonexistent/areasd.json: cannot read the file: No such file or directory")
        #expect(!message.contains("The operation could not be completed"))
    }

    @Test func aFifoOrAFolderIsRefusedWithoutWaiting() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/areasd.json"
        try #require(mkfifo(fifo, 0o600) == 0)
        // A load that waits for a writer fails here after 10 s (a writer then comes and goes).
        let message = await OffThePool.value(within: 10, unblocking: { Fixtures.openAndCloseWriter(fifo) }) { Self.loadError(fifo) }
        #expect(try #require(message, "the load waited for a writer").hasSuffix("cannot read the file: not a regular file (fifo)"))
        #expect(Self.loadError(folder).contains("cannot read the file: not a regular file"))
    }

    static func loadError(_ path: String) -> String {
        do {
            _ = try AreasConfig.load(path: path)
            return "loaded"
        } catch {
            return error.description
        }
    }
}
