import Testing
@testable import AreasServer
import AreasTestTraits

/// One event is one line, whatever upstream text it carries.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct LoggerTests {
    @Test(arguments: [true, false])
    func upstreamTextCannotForgeAnEntry(journal: Bool) {
        let logger = Logger(threshold: .debug, environment: journal ? ["JOURNAL_STREAM": "8:1"] : [:], sink: { _ in })
        let line = logger.format(.warning, "odcloud code -4: \u{0}<0>INJECTED\n<0>also\r\u{1B}[2J\u{85}\u{2028}")
        #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"))
        #expect(!line.unicodeScalars.contains { $0.value == 0 || $0.value == 0x0D || $0.value == 0x1B || $0.value == 0x85 || $0.value == 0x2028 })
        #expect(line.contains("\\u{0}<0>INJECTED | <0>also\\r\\e[2J\\u{85}\\u{2028}"))
        if journal { #expect(line.hasPrefix("<4>")) }
    }
}
