import AreasCore
import AreasProtocol

/// How one request to the city about one hotspot ended: the metrics count each, and every one
/// but `ok` keeps the hotspot's last good reading.
package enum CrowdOutcome: String, Sendable, CaseIterable {
    case ok
    /// `INFO-200`: the city has no estimate for the place now.
    case noData = "no_data"
    /// `INFO-100`: the key is refused; nothing more is asked until the daemon restarts.
    case badKey = "bad_key"
    /// Another `INFO-` code (a key past its quota, a suspended key): nothing more is asked
    /// until midnight in Korea.
    case refused
    /// An `ERROR-` code: the city's own failure.
    case serverError = "server_error"
    /// An answer about another place than the one asked.
    case wrongPlace = "wrong_place"
    /// A level that is none of the four.
    case badLevel = "bad_level"
    /// A time more than 10 minutes ahead, or more than a day behind.
    case badTime = "bad_time"
    /// Not the city's JSON: empty, truncated, HTML, or another shape.
    case malformed
    /// HTTP status other than 200.
    case httpError = "http_error"
    case redirect
    /// The whole answer had not come by `timeoutSeconds`.
    case timeout
    case tooLarge = "too_large"
    /// The connection failed.
    case unreachable
    /// `dailyRequestLimit` is spent for the Korean day: no request was made.
    case quotaSpent = "quota_spent"

    /// The outcome of a request that failed before an answer could be read.
    package init(_ error: UpstreamError) {
        switch error {
        case .timedOut: self = .timeout
        case .redirected: self = .redirect
        case .tooLarge: self = .tooLarge
        case .httpStatus: self = .httpError
        case .quotaReserved: self = .quotaSpent
        case .malformedPage, .undecodableText, .resultCode, .odcloudCode: self = .malformed
        case .transport, .unreadableFile: self = .unreachable
        }
    }
}

/// Reads the city's answer about one hotspot (`citydata_ppltn`).
package enum CityDataAnswer {
    /// The largest answer read (a real one, forecasts and all, is about 5 KB).
    package static let maximumBytes = 256 << 10
    /// How far ahead of the clock an estimate's time may be (the city's clock, or ours, off).
    package static let toleratedAheadSeconds = 600.0
    /// How old an estimate may be and still be served as the latest.
    package static let maximumAgeSeconds = 86_400.0

    /// What an answer said: a reading, or the outcome that explains why there is none and a
    /// sentence for the operator.
    package enum Reading: Sendable, Equatable {
        case reading(CrowdReading)
        case failed(CrowdOutcome, String)
    }

    private static func printable(_ text: String) -> String { String(text.prefix(80)).escapingControlCharacters() }

    /// The reading in `body`, asked about hotspot `code` (named `name`) at `now`.
    package static func read(_ body: [UInt8], code: String, name: String, now: Double) -> Reading {
        guard let answer = try? JSONParser.parse(body), case .object = answer else {
            let start = String(decoding: body.prefix(40), as: UTF8.self)
            return .failed(.malformed, body.isEmpty ? "an empty answer" : "not a JSON object: '\(printable(start))'")
        }
        let result = answer["RESULT"]
        let resultCode = result?["RESULT.CODE"]?.string ?? answer["CODE"]?.string
        let resultMessage = result?["RESULT.MESSAGE"]?.string ?? answer["MESSAGE"]?.string ?? ""
        guard case .array(let items)? = answer["SeoulRtd.citydata_ppltn"], case .object? = items.first, let item = items.first else {
            guard let resultCode else { return .failed(.malformed, "neither SeoulRtd.citydata_ppltn nor a RESULT.CODE") }
            let said = "\(resultCode)" + (resultMessage.isEmpty ? "" : " (\(printable(resultMessage)))")
            if resultCode == "INFO-100" { return .failed(.badKey, "the city refused the key: \(said)") }
            if resultCode == "INFO-200" { return .failed(.noData, "no estimate now: \(said)") }
            if resultCode.hasPrefix("ERROR-") { return .failed(.serverError, "the city's error \(said)") }
            if resultCode == "INFO-000" { return .failed(.malformed, "INFO-000 without SeoulRtd.citydata_ppltn") }
            return .failed(.refused, "the city refused the request: \(said)")
        }
        if let resultCode, resultCode != "INFO-000" {
            return .failed(resultCode.hasPrefix("ERROR-") ? .serverError : .refused, "an estimate beside code \(resultCode)")
        }
        let answeredCode = item["AREA_CD"]?.string
        let answeredName = item["AREA_NM"]?.string
        if let answeredCode, answeredCode != code {
            return .failed(.wrongPlace, "asked about \(code), answered about \(printable(answeredCode))")
        }
        if answeredCode == nil, let answeredName, answeredName != name {
            return .failed(.wrongPlace, "asked about \(name), answered about \(printable(answeredName))")
        }
        guard let levelText = item["AREA_CONGEST_LVL"]?.string, let level = CrowdLevel(rawValue: levelText.trimmed) else {
            let shown = item["AREA_CONGEST_LVL"]?.string.map { "'\(printable($0))'" } ?? "none"
            return .failed(.badLevel, "level \(shown) is none of 여유, 보통, 약간 붐빔, 붐빔")
        }
        guard let timeText = item["PPLTN_TIME"]?.string, let at = CrowdReading.koreanTime(timeText) else {
            return .failed(.badTime, "no readable PPLTN_TIME")
        }
        if at > now + toleratedAheadSeconds { return .failed(.badTime, "PPLTN_TIME \(timeText) is ahead of the clock") }
        if at < now - maximumAgeSeconds { return .failed(.badTime, "PPLTN_TIME \(timeText) is more than a day old") }
        func count(_ key: String) -> Int? {
            guard let text = item[key]?.string, let value = Double(text.trimmed), value.isFinite, value >= 0, value < 1e9 else { return nil }
            return Int(value)
        }
        let message = String((item["AREA_CONGEST_MSG"]?.string ?? "").prefix(500))
        return .reading(CrowdReading(level: level, message: message, minimum: count("AREA_PPLTN_MIN"), maximum: count("AREA_PPLTN_MAX"), at: at))
    }
}
