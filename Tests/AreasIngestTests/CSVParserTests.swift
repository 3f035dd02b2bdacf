import Testing
@testable import AreasIngest
import AreasTestTraits

/// RFC 4180's grammar, case by case, and the ways real files stray from it.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct CSVParserTests {
    @Test(arguments: [
        ("a,b,c\r\n1,2,3\r\n", [["a", "b", "c"], ["1", "2", "3"]]),
        ("a,b\n1,2", [["a", "b"], ["1", "2"]]),
        ("a,b\r1,2\r", [["a", "b"], ["1", "2"]]),
        ("\"a,b\",c\n", [["a,b", "c"]]),
        ("\"say \"\"hi\"\"\",x\n", [["say \"hi\"", "x"]]),
        ("\"line\r\nbreak\",x\n", [["line\r\nbreak", "x"]]),
        ("\"\",\"\"\n", [["", ""]]),
        ("a,,c\n", [["a", "", "c"]]),
        ("a,b,\n", [["a", "b", ""]]),
        (",\n", [["", ""]]),
        ("a\n\nb\n", [["a"], [""], ["b"]]),
        ("a,b,c\n1\n1,2,3,4\n", [["a", "b", "c"], ["1"], ["1", "2", "3", "4"]]),
        ("\"quoted\"tail,x\n", [["quotedtail", "x"]]),
        ("in\"side,x\n", [["in\"side", "x"]]),
        ("한글,\"실외, 실내\"\r\n", [["한글", "실외, 실내"]]),
        ("", []),
    ] as [(String, [[String]])])
    func rows(text: String, expected: [[String]]) throws {
        #expect(try CSVParser().rows(Array(text.utf8)) == expected)
    }

    @Test func anotherDelimiter() throws {
        #expect(try CSVParser(delimiter: UInt8(ascii: ";")).rows(Array("a;\"b;c\";d\n".utf8)) == [["a", "b;c", "d"]])
        #expect(try CSVParser(delimiter: 0x09).rows(Array("a\tb,c\n".utf8)) == [["a", "b,c"]])
    }

    @Test func paddingCanBeDroppedAsCellsAreRead() throws {
        let text = Array("  a  ,\tb\t, \" c \" ,한글   \n".utf8)
        #expect(try CSVParser(trimsSpaces: true).rows(text) == [["a", "b", " c ", "한글"]])
        #expect(try CSVParser().rows(text) == [["  a  ", "\tb\t", " \" c \" ", "한글   "]])
    }

    @Test func aQuoteThatNeverClosesNamesItsLine() {
        #expect(throws: CSVParser.Unterminated(line: 4)) {
            try CSVParser().rows(Array("a,b\n\"x\ny\",z\n\"open,and\nnever closed\n".utf8))
        }
    }
}
