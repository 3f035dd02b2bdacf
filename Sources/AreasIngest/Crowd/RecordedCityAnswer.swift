/// A recorded answer of the city, replayed as today's: its `PPLTN_TIME` keeps its time of day
/// and takes today's date in Korea (yesterday's, when that time is still ahead), so the bundled
/// samples show levels with a plausible age. Only `crowd.recorded` replays; the city's own
/// answers are read as they come.
package enum RecordedCityAnswer {
    package static func replayed(_ body: [UInt8], now: Double) -> [UInt8] {
        let key = Array("\"PPLTN_TIME\"".utf8)
        guard let start = body.firstRange(of: key)?.upperBound,
              let quote = body[start...].firstIndex(of: UInt8(ascii: "\"")), quote + 17 <= body.count else { return body }
        let valueStart = quote + 1
        let text = String(decoding: body[valueStart..<valueStart + 16], as: UTF8.self)
        guard let recorded = CrowdReading.koreanTime(text) else { return body }
        let offset = Double(CrowdReading.koreanOffset)
        let timeOfDay = (recorded + offset).truncatingRemainder(dividingBy: 86_400)
        var replayed = ((now + offset) / 86_400).rounded(.down) * 86_400 + timeOfDay - offset
        if replayed > now { replayed -= 86_400 }
        var bytes = body
        // `YYYY-MM-DDTHH:MM+09:00` written back as `YYYY-MM-DD HH:MM`, the city's form.
        var written = Array(CrowdReading.koreanText(replayed).utf8.prefix(16))
        written[10] = 0x20
        bytes.replaceSubrange(valueStart..<valueStart + 16, with: written)
        return bytes
    }
}
