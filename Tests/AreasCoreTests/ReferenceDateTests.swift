import AreasCore
import Foundation
import Testing
import AreasTestTraits

/// Reference dates as the portal's files write them, checked against Foundation's Gregorian
/// calendar as an independent oracle.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ReferenceDateTests {
    @Test(arguments: [
        ("2026-06-30", "2026-06-30"), ("2024.03.15", "2024-03-15"), ("2024/3/5", "2024-03-05"),
        ("20240131", "2024-01-31"), ("2025-12-31 00:00:00", "2025-12-31"), ("2024-02-29T09:00", "2024-02-29"),
        (" 2020-09-21 ", "2020-09-21"), ("2024.03.15.", "2024-03-15"),
    ])
    func theFormsFilesUse(text: String, expected: String) throws {
        let date = try #require(ReferenceDate(parsing: text))
        #expect(date.text == expected)
    }

    @Test(arguments: ["", "미상", "2023-02-29", "2024-13-01", "2024-00-10", "1899-01-01", "2150-01-01", "2024-1-1-1",
                      "2024-01.31", "20241301", "24-01-31", "2024-01-31x", "-2024-01-31", "2024--01-31", "12345678901"])
    func whatIsNotADate(text: String) {
        #expect(ReferenceDate(parsing: text) == nil)
    }

    @Test func everyDayAgreesWithTheCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var day = try #require(calendar.date(from: DateComponents(year: 1990, month: 1, day: 1)))
        // The last day two bytes hold is 2149-06-06.
        let end = try #require(calendar.date(from: DateComponents(year: 2149, month: 6, day: 6)))
        var checked = 0
        while day <= end {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let (year, month, dayOfMonth) = (try #require(parts.year), try #require(parts.month), try #require(parts.day))
            let date = try #require(ReferenceDate(year: year, month: month, day: dayOfMonth))
            #expect(date.secondsSince1970 == day.timeIntervalSince1970)
            #expect(ReferenceDate(parsing: date.text) == date)
            checked += 1
            day = day.addingTimeInterval(86_400 * 3)
        }
        #expect(checked > 19_000)
        #expect(ReferenceDate(year: 2149, month: 6, day: 7) == nil)
    }
}
