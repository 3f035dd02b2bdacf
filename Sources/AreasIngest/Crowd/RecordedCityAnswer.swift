/// A recorded answer of the city, replayed as the latest: its `PPLTN_TIME` becomes the last
/// five-minute mark at or before now in Korea (the city's own cadence), so the bundled samples
/// show levels a few minutes old, as a live city's would be, never stale and never ahead of the
/// clock. Only `crowd.recorded` replays; the city's own answers are read as they come.
package enum RecordedCityAnswer {
    package static func replayed(_ body: [UInt8], now: Double) -> [UInt8] {
        let key = Array("\"PPLTN_TIME\"".utf8)
        guard let start = body.firstRange(of: key)?.upperBound,
              let quote = body[start...].firstIndex(of: UInt8(ascii: "\"")), quote + 17 <= body.count else { return body }
        let valueStart = quote + 1
        let text = String(decoding: body[valueStart..<valueStart + 16], as: UTF8.self)
        guard CrowdReading.koreanTime(text) != nil else { return body }
        let replayed = (now / 300).rounded(.down) * 300
        var bytes = body
        // `YYYY-MM-DDTHH:MM+09:00` written back as `YYYY-MM-DD HH:MM`, the city's form.
        var written = Array(CrowdReading.koreanText(replayed).utf8.prefix(16))
        written[10] = 0x20
        bytes.replaceSubrange(valueStart..<valueStart + 16, with: written)
        return bytes
    }
}
