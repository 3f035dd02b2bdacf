import Testing
@testable import AreasCore
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ControlCharacterTests {
    @Test(arguments: [
        ("서울역 광장 1번출구", "서울역 광장 1번출구"),
        ("a\nb", "a\\nb"),
        ("\u{0}<0>INJECTED", "\\u{0}<0>INJECTED"),
        ("\r\t\u{1B}[2J\u{7F}", "\\r\\t\\e[2J\\u{7F}"),
        ("NEL\u{85}LS\u{2028}PS\u{2029}", "NEL\\u{85}LS\\u{2028}PS\\u{2029}"),
        ("é – ‘quotes’ 中", "é – ‘quotes’ 中"),
        // Bidirectional controls: shown, not obeyed.
        ("abc\u{202E}fed\u{202C} \u{2066}x\u{2069} \u{200F}", "abc\\u{202E}fed\\u{202C} \\u{2066}x\\u{2069} \\u{200F}"),
    ])
    func escaped(text: String, expected: String) {
        #expect(text.escapingControlCharacters() == expected)
    }

    @Test func aLineBreakCanStandForNewlines() {
        #expect("one\ntwo\r\n".escapingControlCharacters(lineBreak: " | ") == "one | two\\r | ")
    }
}
