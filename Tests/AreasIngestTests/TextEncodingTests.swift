import AreasSystem
import Testing
@testable import AreasIngest
import AreasTestTraits

/// CP949 through the C library's iconv, checked against KS X 1001's own layout.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct TextEncodingTests {
    /// KS X 1001 lays its 2,350 Hangul syllables out in rows 0xB0-0xC8, columns 0xA1-0xFE, in
    /// dictionary order, which is also Unicode's: so decoding them all must give 2,350
    /// syllables of U+AC00-U+D7A3, strictly increasing, from 가 to 힝, and encoding those
    /// back must give the same bytes.
    @Test func everyKSX1001HangulSyllableBothWays() throws {
        var bytes: [UInt8] = []
        for lead in UInt8(0xB0)...0xC8 {
            for trail in UInt8(0xA1)...0xFE { bytes += [lead, trail] }
        }
        let decoded = try TextConverter(from: "CP949", to: "UTF-8").convert(bytes)
        let scalars = Array(String(decoding: decoded, as: UTF8.self).unicodeScalars)
        #expect(scalars.count == 2350)
        #expect(scalars.allSatisfy { (0xAC00...0xD7A3).contains($0.value) })
        #expect(zip(scalars, scalars.dropFirst()).allSatisfy { $0.value < $1.value })
        #expect(scalars.first == "가" && scalars.last == "힝")
        #expect(try TextConverter(from: "UTF-8", to: "CP949").convert(decoded) == bytes)
    }

    /// CP949 extends KS X 1001 with the other 8,822 syllables (똠 is the classic one).
    @Test func theSyllablesOnlyCP949Has() throws {
        let text = "똠방각하 쌰"
        let cp949 = try TextConverter(from: "UTF-8", to: "CP949").convert(Array(text.utf8))
        #expect(try TextEncoding.cp949.utf8Text(cp949) == Array(text.utf8))
        #expect(try TextEncoding.auto.utf8Text(cp949) == Array(text.utf8))
    }

    @Test func autoKeepsUTF8AndDropsTheByteOrderMark() throws {
        #expect(try TextEncoding.auto.utf8Text([0xEF, 0xBB, 0xBF] + Array("위도".utf8)) == Array("위도".utf8))
        #expect(try TextEncoding.utf8.utf8Text(Array("경도".utf8)) == Array("경도".utf8))
    }

    @Test func textInTheWrongEncodingIsAClearError() throws {
        let cp949 = try TextConverter(from: "UTF-8", to: "CP949").convert(Array("흡연구역".utf8))
        #expect(throws: UpstreamError.self) { try TextEncoding.utf8.utf8Text(cp949) }
        do {
            _ = try TextEncoding.cp949.utf8Text([0x41, 0xFF, 0xFF, 0x42])
            Issue.record("0xFF 0xFF decoded as CP949")
        } catch {
            #expect(error.description.contains("offset 1"), "\(error)")
        }
        do {
            _ = try TextEncoding.cp949.utf8Text([0x41, 0xB0])
            Issue.record("a cut lead byte decoded")
        } catch {
            #expect(error.description.contains("ends inside a character"), "\(error)")
        }
    }

    @Test(arguments: [("auto", TextEncoding.auto), ("UTF-8", .utf8), ("cp949", .cp949), ("euc-kr", .cp949), ("EUC-KR", .cp949)])
    func configNames(name: String, encoding: TextEncoding) {
        #expect(TextEncoding(configName: name) == encoding)
    }
}
