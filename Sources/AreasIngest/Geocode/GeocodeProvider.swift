import AreasCore

/// A question for the geocoder: an address to look up, or a place to search for by name.
package struct GeocodeQuestion: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        /// Address search (`geocode.query`).
        case address
        /// Place search (`geocode.keyword`), asked when address search finds nothing.
        case place
    }

    package var kind: Kind
    package var text: String

    package init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }
}

/// One HTTP request a provider makes for a question.
package struct GeocodeRequest: Sendable, Equatable {
    package var url: String
    package var headers: [String: String]
}

/// What one answer from a provider says.
package enum GeocodeReply: Sendable, Equatable {
    case found(latitude: Double, longitude: Double)
    case notFound
    /// Worth asking again later: a time-out, 429, a 5xx, an answer that is not the expected shape.
    case transient(String)
    /// Asking again will not help this refresh: the key is refused or missing.
    case refused(String)
}

/// The protocol of one geocoding service: what to send for a question, and how to read what comes back.
package protocol GeocodeProvider: Sendable {
    /// The requests for `question`, in order: the next is sent only when the one before found nothing.
    func requests(for question: GeocodeQuestion, key: String) -> [GeocodeRequest]
    /// Reads one answer.
    func reply(status: Int, body: [UInt8]) -> GeocodeReply
}

extension GeocodeReply {
    /// The reply for an HTTP status a provider's body did not explain.
    static func forStatus(_ status: Int, detail: String) -> GeocodeReply {
        let suffix = detail.isEmpty ? "" : ": \(detail)"
        switch status {
        case 401, 403: return .refused("HTTP \(status), the geocoder refused the key\(suffix)")
        case 429: return .transient("HTTP 429, the geocoder's rate limit\(suffix)")
        case 400, 404: return .notFound
        default: return .transient("HTTP \(status)\(suffix)")
        }
    }

    /// A position from the text of two JSON members (`x` longitude, `y` latitude).
    static func position(x: String?, y: String?) -> GeocodeReply {
        guard let x, let y, let longitude = RecordValidator.decimal(x.trimmed), let latitude = RecordValidator.decimal(y.trimmed) else {
            return .transient("an answer without a readable position")
        }
        return .found(latitude: latitude, longitude: longitude)
    }
}
