import AreasCore
import AreasProtocol
import Glibc

/// `areasctl stats` for people: what is served, each source's freshness as an age and a local
/// date, provinces, the last refresh line by line. `--json` keeps the daemon's epochs.
extension ResponseFormatter {
    static func stats(_ stats: Object, now: Double, width: Int?) -> String {
        var text = ""
        let byKind = Object(stats.members(.byKind))
        text += "areasd \(stats.string(.build) ?? "?"), up \(age(stats.double(.uptimeSeconds))), \(stats.int(.queriesServed) ?? 0) queries served\n"
        text += "\(stats.int(.areas) ?? 0) areas: \(byKind.int(.smoking) ?? 0) smoking, \(byKind.int(.nonsmoking) ?? 0) non-smoking\(stats.bool(.refreshing) == true ? "; refreshing now" : "")\n"
        let snapshot = Object(stats.members(.snapshot))
        if let path = snapshot.string(.path) {
            let written = snapshot.double(.ageSeconds).map { ", written \(age($0)) ago" } ?? " (not written yet)"
            text += "snapshot \(path)\(snapshot.double(.bytes).map { " (\(bytes($0)))" } ?? "")\(written)\n"
        }

        // Today's upstream requests, only when some were made (a follower and the samples make none).
        let sources = stats.members(.bySource).compactMap { name, value -> (String, Object)? in
            if case .object(let members) = value { return (name, Object(members)) } else { return nil }
        }
        let counted = sources.contains { ($0.1.int(.requestsToday) ?? 0) > 0 }
        var rows = [["SOURCE", "AREAS", "DATA AGE", "FETCHED (\(LocalTime.zoneName(now)))", "LAST ATTEMPT"] + (counted ? ["REQUESTS TODAY"] : []) + ["STATUS"]]
        for (name, source) in sources {
            let status = source.string(.lastStatus) ?? "-"
            let error = source.string(.lastError).map { ": " + $0 } ?? ""
            rows.append([name.escapingControlCharacters(), String(source.int(.areas) ?? 0), age(source.double(.ageSeconds)),
                         source.double(.fetchedAt).map(LocalTime.text) ?? "never",
                         source.double(.lastAttemptAt).map { age(now - $0) + " ago" } ?? "-"]
                        + (counted ? [String(source.int(.requestsToday) ?? 0)] : []) + [status + error])
        }
        if rows.count > 1 {
            text += "\n" + align(rows, rightAligned: counted ? [1, 2, 5] : [1, 2], elastic: [0, counted ? 6 : 5], width: width)
        }
        if let geocoder = stats.int(.geocoderRequestsToday), geocoder > 0 { text += "geocoder: \(geocoder) requests today\n" }

        let provinces = stats.members(.byProvince).map { [$0.0.escapingControlCharacters(), Object.text($0.1)] }
        if !provinces.isEmpty { text += "\n" + align([["PROVINCE", "AREAS"]] + provinces, rightAligned: [1]) }

        let report = Object(stats.members(.lastRefresh))
        if let started = report.double(.startedAt) {
            let outcome = report.bool(.succeeded) == true ? "succeeded" : "failed"
            let duration = milliseconds(report.double(.durationMilliseconds))
            text += "\nlast refresh: \(LocalTime.text(started)) (\(age(now - started)) ago), \(duration), \(outcome)\n"
            for case .object(let members) in report.array(.sources) {
                let line = "  " + (Object(members).string(.summary) ?? "")
                text += (width.map { displayWidth(line) > $0 ? elide(line, to: $0) : line } ?? line) + "\n"
            }
        }
        let index = Object(stats.members(.index))
        let memory = Object(stats.members(.memory))
        text += "memory: records \(bytes(memory.double(.recordBytes))), text \(bytes(memory.double(.textBytes))), index \(bytes(memory.double(.indexBytes))), search \(bytes(memory.double(.searchBytes)))"
            + (memory.double(.crowdBytes).map { ", crowd hotspots \(bytes($0))" } ?? "")
        text += "; resident \(bytes(memory.double(.residentBytes))) (\(bytes(memory.double(.residentAnonymousBytes))) anonymous, of it heap \(bytes(memory.double(.heapBytes))) in use and \(bytes(memory.double(.heapFreeBytes))) held free; \(bytes(memory.double(.residentFileBytes))) mapped files)"
        text += index.double(.buildMilliseconds).map { "; index built in \(milliseconds($0))\n" } ?? "; index read from the snapshot at start\n"
        // Where the resident pages are, part by part, and how closely the parts add up.
        if let accounted = memory.double(.accountedBytes) {
            let parts = memory.members(.residentParts).compactMap { name, value in
                if case .number(let size) = value { "\(name) \(bytes(size))" } else { nil }
            }
            text += "resident by part: " + (parts + [
                "other files \(bytes(memory.double(.otherFileBytes)))",
                "other heap \(bytes(memory.double(.heapOtherBytes)))",
                "allocator free space and stacks \(bytes(memory.double(.anonymousUnallocatedBytes)))",
            ]).joined(separator: ", ") + "; \(bytes(accounted)) in all\n"
        }
        return text
    }

    static func age(_ seconds: Double?) -> String {
        guard let seconds else { return "-" }
        return MeasurementText.duration(Swift.max(0, seconds))
    }

    /// "0.3 ms", "111 ms", "2.5 s".
    static func milliseconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        if value < 10 { return "\((value * 10).rounded() / 10) ms" }
        return value < 1000 ? "\(Int(value.rounded())) ms" : MeasurementText.duration(value / 1000)
    }

    static func bytes(_ count: Double?) -> String {
        guard let count else { return "-" }
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = count
        var unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(Int(value)) B" : "\((value * 10).rounded() / 10) \(units[unit])"
    }
}

/// Dates in the machine's time zone (`TZ`), to the minute, as people read them.
enum LocalTime {
    static func text(_ epoch: Double) -> String { format(epoch, "%Y-%m-%d %H:%M") }

    /// The zone's abbreviation at `epoch` ("KST", "UTC").
    static func zoneName(_ epoch: Double) -> String { format(epoch, "%Z") }

    private static func format(_ epoch: Double, _ pattern: String) -> String {
        var seconds = time_t(epoch)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return String(Int(epoch)) }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
