import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import Foundation

/// The daemon's state in the Prometheus text exposition format (version 0.0.4), for
/// `areasctl metrics` (and node_exporter's textfile collector).
///
/// Every family has its `# HELP` and `# TYPE` lines before its samples; counters end in
/// `_total`; label values are escaped as the format asks (backslash, double quote, newline).
enum PrometheusText {
    static func render(served: AreaService.View, status: Answers.ServiceStatus, counters: ServiceCounters) -> String {
        let state = served.state, refreshInterval = served.refreshInterval, crowd = served.crowd?.watch
        var text = Text()
        let now = Date().timeIntervalSince1970
        text.family("areas_build_info", .gauge, "The running build; the value is always 1.")
        text.sample("areas_build_info", ["version": AreasVersion.current], 1)

        text.metric("areas_data_loaded", .gauge, "1 when a data set is loaded and served.", state.hasData ? 1 : 0)
        text.metric("areas_healthy", .gauge, "1 when areasctl health would exit 0: data loaded, fresh, every source's last refresh taken.", Answers.healthProblem(state, refreshInterval: refreshInterval, now: now) == nil ? 1 : 0)
        text.family("areas_data_age_seconds", .gauge, "Age of the oldest source's data.")
        if let age = state.dataAge(now: now) { text.sample("areas_data_age_seconds", [:], age) }

        text.family("areas_areas", .gauge, "Areas served, by kind.")
        for kind in AreaKind.allCases { text.sample("areas_areas", ["kind": kind.rawValue], Double(state.count(of: kind))) }

        let names = Set(state.sources.keys).union(state.history.keys).sorted()
        text.family("areas_source_areas", .gauge, "Areas served from each source.")
        for name in names { text.sample("areas_source_areas", ["source": name], Double(state.counts(of: name).areas)) }
        text.family("areas_source_age_seconds", .gauge, "Age of each source's served data.")
        for name in names {
            if let fetched = state.sources[name]?.fetchedAt { text.sample("areas_source_age_seconds", ["source": name], Swift.max(0, now - fetched)) }
        }
        text.family("areas_source_reference_date_seconds", .gauge, "The oldest and newest date each source states its data for (데이터기준일자), midnight UTC in seconds since 1970.")
        for name in names {
            guard let dates = state.counts(of: name).referenceDates else { continue }
            text.sample("areas_source_reference_date_seconds", ["source": name, "bound": "oldest"], dates.oldest.secondsSince1970)
            text.sample("areas_source_reference_date_seconds", ["source": name, "bound": "newest"], dates.newest.secondsSince1970)
        }
        // Counted for dailyRequestLimit; the day is Korea's, as the portals count it.
        let requestsToday = status.requestsToday
        text.family("areas_upstream_requests_today", .gauge, "Upstream requests made today (Korean time) by each source and the geocoder.")
        for name in requestsToday.keys.sorted() { text.sample("areas_upstream_requests_today", ["source": name], Double(requestsToday[name] ?? 0)) }
        text.family("areas_source_last_refresh_success", .gauge, "1 when the source's last refresh was taken, 0 when it failed or was held back.")
        for name in names {
            if let status = state.history[name]?.lastStatus {
                text.sample("areas_source_last_refresh_success", ["source": name], status == SourceReport.Status.updated.rawValue ? 1 : 0)
            }
        }
        text.family("areas_source_last_success_timestamp_seconds", .gauge, "When each source's data was last taken, in seconds since 1970.")
        for name in names {
            if let at = state.history[name]?.lastSuccessAt ?? state.sources[name]?.fetchedAt {
                text.sample("areas_source_last_success_timestamp_seconds", ["source": name], at.rounded())
            }
        }
        text.family("areas_refresh_duration_seconds", .gauge, "How long the last refresh took.")
        if let report = state.lastReport { text.sample("areas_refresh_duration_seconds", [:], report.durationMilliseconds / 1000) }
        text.metric("areas_refreshing", .gauge, "1 while a refresh runs.", status.refreshing ? 1 : 0)

        text.family("areas_requests_total", .counter, "Requests answered, by operation (requests that could not be read count under errors only).")
        for (i, op) in Request.operationNames.enumerated() { text.sample("areas_requests_total", ["op": op], Double(counters.byOperation[i].current)) }
        text.family("areas_request_errors_total", .counter, "Error answers, by code.")
        for (i, code) in RequestTally.errorCodes.enumerated() { text.sample("areas_request_errors_total", ["code": code.rawValue], Double(counters.byError[i].current)) }

        text.metric("areas_connections_open", .gauge, "Client connections open now.", Double(counters.open.current))
        text.metric("areas_connections_accepted_total", .counter, "Client connections served.", Double(counters.accepted.current))
        text.metric("areas_connections_refused_total", .counter, "Client connections told busy and closed: over maxConnections, or no thread could start.", Double(counters.refused.current))
        text.metric("areas_connections_closed_for_output_total", .counter, "Connections closed because their answers would pass maxOutputBytes.", Double(counters.closedForOutput.current))
        text.metric("areas_http_requests_refused_total", .counter, "HTTP requests refused before they were understood (malformed, too large, too slow), each closing its connection.", Double(counters.httpRefused.current))
        text.metric("areas_output_waiting_bytes", .gauge, "Bytes of answers being written to clients now.", Double(counters.waitingOutputBytes.current))

        if let crowd { crowdFamilies(crowd, into: &text) }

        text.metric("process_resident_memory_bytes", .gauge, "Resident memory size in bytes.", Double(FreeMemory.usage().resident))
        text.metric("process_start_time_seconds", .gauge, "Start time of the process since unix epoch in seconds.", status.startedAt.rounded())
        return text.lines
    }

    /// The city's crowd requests by outcome, the day's quota left, and each hotspot's level
    /// (0 여유 to 3 붐빔) and its age.
    static func crowdFamilies(_ crowd: CrowdWatch, into text: inout Text) {
        let status = crowd.status
        text.family("areas_crowd_requests_total", .counter, "Requests to the city's people-density API since start, by outcome (quota_spent: none was made).")
        for outcome in CrowdOutcome.allCases {
            text.sample("areas_crowd_requests_total", ["outcome": outcome.rawValue], Double(status.outcomes[outcome.index]))
        }
        text.metric("areas_crowd_quota_remaining", .gauge, "Requests to the city still allowed today (Korean time) by crowd.dailyRequestLimit.",
                    Double(Swift.max(0, crowd.config.dailyRequestLimit - status.requestsToday)))
        text.metric("areas_crowd_asking_stopped", .gauge, "1 while the city is not asked (a refused key, or its own quota spent).", status.stopped == nil ? 0 : 1)
        let hotspots = crowd.hotspots
        text.family("areas_crowd_level", .gauge, "Each hotspot's last level: 0 여유, 1 보통, 2 약간 붐빔, 3 붐빔.")
        for hotspot in 0..<hotspots.count {
            guard let reading = status.readings[hotspot] else { continue }
            text.sample("areas_crowd_level", ["code": hotspots.codes[hotspot], "place": hotspots.names[hotspot]],
                        Double(CrowdLevel.allCases.firstIndex(of: reading.level) ?? 0))
        }
        text.family("areas_crowd_level_age_seconds", .gauge, "How old each hotspot's last level is.")
        for hotspot in 0..<hotspots.count {
            guard let reading = status.readings[hotspot] else { continue }
            text.sample("areas_crowd_level_age_seconds", ["code": hotspots.codes[hotspot]], Swift.max(0, status.now - reading.at).rounded())
        }
    }

    enum Kind: String { case gauge, counter }

    struct Text {
        var lines = ""

        /// A family of one sample without labels.
        mutating func metric(_ name: String, _ kind: Kind, _ help: String, _ value: Double) {
            family(name, kind, help)
            sample(name, [:], value)
        }

        mutating func family(_ name: String, _ kind: Kind, _ help: String) {
            lines += "# HELP \(name) \(help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n"))\n"
            lines += "# TYPE \(name) \(kind.rawValue)\n"
        }

        mutating func sample(_ name: String, _ labels: [String: String], _ value: Double) {
            lines += name
            if !labels.isEmpty {
                let pairs = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\(Self.escape($0.value))\"" }
                lines += "{" + pairs.joined(separator: ",") + "}"
            }
            lines += " " + Self.number(value) + "\n"
        }

        static func escape(_ value: String) -> String {
            value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
        }

        /// Whole numbers without a fraction; others as Swift prints a double (Go's parser reads both).
        static func number(_ value: Double) -> String {
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        }
    }
}
