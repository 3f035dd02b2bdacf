import AreasControl
import AreasProtocol
import Testing
import AreasTestTraits

/// `areasctl search`'s table: rows that a publisher wrote alike (one name, one address, three
/// booths) are told apart, and a narrow terminal keeps what tells them apart.
@Suite(.offThePool, .timeLimit(.minutes(1))) struct SearchTableTests {
    /// Three booths `서울역 광장 9번출구` at one address and two positions 40 m apart, and one
    /// at `1번출구`, as the Yongsan samples list them.
    static func answer(distances: Bool) -> String {
        let booths: [(id: String, exit: Int, lat: Double, lon: Double, meters: Double)] = [
            ("yongsan:08884aad4bf0b8ad", 9, 37.55541, 126.97075, 120),
            ("yongsan:0e278d263b92c27f", 9, 37.55577, 126.97081, 160),
            ("yongsan:ece98ff492453351", 9, 37.55512, 126.97125, 95),
            ("yongsan:027a36e0cd0ad58b", 1, 37.55433, 126.97204, 210),
        ]
        let areas = booths.map { booth in
            let name = "서울특별시 용산구 서울역 광장 \(booth.exit)번출구"
            let distance = distances ? #","distanceMeters":\#(booth.meters)"# : ""
            return #"{"id":"\#(booth.id)","kind":"smoking","name":"\#(name)","lat":\#(booth.lat),"lon":\#(booth.lon)\#(distance),"address":"\#(name)","province":"서울특별시","district":"용산구","source":"yongsan","matched":"name"}"#
        }
        return #"{"ok":true,"count":4,"truncated":false,"areas":[\#(areas.joined(separator: ","))],"places":[]}"#
    }

    static func lines(_ answer: String, width: Int?) throws -> [String] {
        let output = ResponseFormatter.render(Array(answer.utf8), for: try ControlCommand.parse(["search", "서울역"]), width: width)
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init)
    }

    @Test func rowsWrittenAlikeAreToldApartByTheirPosition() throws {
        let lines = try Self.lines(Self.answer(distances: false), width: nil)
        try #require(lines.count == 5)
        let header = lines[0].split(separator: " ").map(String.init)
        #expect(header == ["MATCHED", "KIND", "NAME", "DISTRICT", "POSITION", "ID"], "\(lines[0])")
        // An address that only repeats the name is not printed twice.
        #expect(!lines[0].contains("ADDRESS"))
        #expect(Set(lines.dropFirst()).count == 4)
        #expect(lines[1].contains("37.55541,126.97075") && lines[2].contains("37.55577,126.97081"), "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.contains("용산구    ") || $0.contains("용산구  ") })
        // Without the id and the position, three rows would be alike.
        let withoutIDAndPosition = lines.dropFirst().map { $0.split(separator: " ").dropLast(2).joined(separator: " ") }
        #expect(Set(withoutIDAndPosition).count == 2)
    }

    /// Given a position (`--near`, the map's middle), the distance tells them apart instead.
    @Test func withDistancesThePositionIsNotNeeded() throws {
        let lines = try Self.lines(Self.answer(distances: true), width: nil)
        #expect(lines.first?.hasPrefix("DISTANCE  MATCHED") == true && lines.first?.contains("POSITION") == false, "\(lines)")
        #expect(lines.dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["120 m", "160 m", "95 m", "210 m"])
    }

    /// On 80 and 60 columns: every line fits; the names keep their end (`9번출구`), losing the
    /// province and district the DISTRICT column gives, never cut at their front with "…"; the
    /// id goes before any name is cut.
    @Test(arguments: [80, 60]) func aNarrowTerminalKeepsWhatTellsThemApart(columns: Int) throws {
        let lines = try Self.lines(Self.answer(distances: false), width: columns)
        try #require(lines.count == 5)
        for line in lines { #expect(ResponseFormatter.displayWidth(line) <= columns, "\(line)") }
        #expect(!lines[0].contains(" ID"), "\(lines[0])")
        for (line, exit) in zip(lines.dropFirst(), [9, 9, 9, 1]) {
            #expect(line.contains("서울역 광장 \(exit)번출구") || columns < 70, "\(line)")
            #expect(!line.contains("…서울") && !line.contains("서울특별시"), "\(line)")
            #expect(line.contains("용산구") && line.contains("37.5"), "\(line)")
        }
        if columns < 70 {
            // Still told apart by their positions, whatever the name keeps.
            #expect(Set(lines.dropFirst()).count == 4)
        }
    }
}
