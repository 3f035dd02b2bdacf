/// Why one page from an upstream service could not be used.
///
/// Each case knows whether trying again may help: transient failures are retried with
/// back-off, permanent ones fail the source at once.
package enum UpstreamError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// A data.go.kr result code, from the normal header or the gateway envelope.
    case resultCode(String, message: String)
    /// An odcloud gateway error code (negative numbers).
    case odcloudCode(Int, message: String)
    /// An HTTP status that carried no envelope we could read.
    case httpStatus(Int)
    /// The body was not a complete page: empty, truncated, HTML, binary, or not the expected shape.
    case malformedPage(String)
    /// The request never got an answer: connection refused or reset.
    case transport(String)
    /// The whole answer had not arrived by the request's deadline (`timeoutSeconds`).
    case timedOut(seconds: Double)
    /// The peer answered with a redirect, which is never followed.
    case redirected(status: Int)
    /// A page or file larger than the source's `maxPageBytes`.
    case tooLarge(bytes: Int, limit: Int)
    /// A source's local file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The bytes are not text in the source's encoding.
    case undecodableText(String)
    /// The source's `dailyRequestLimit` is spent: no request was made.
    case quotaReserved(limit: Int)

    package var isTransient: Bool {
        switch self {
        case .resultCode(let code, _): return ResultCodes.dataGoKrTransient.contains(code)
        case .odcloudCode(let code, _): return code == -1 || code == -10
        case .httpStatus(let status): return status == 429 || (500...599).contains(status) || status == 408
        case .malformedPage, .transport, .timedOut, .redirected, .tooLarge: return true
        case .unreadableFile, .undecodableText, .quotaReserved: return false
        }
    }

    static func seconds(_ value: Double) -> String { value == value.rounded() ? "\(Int(value)) s" : "\(value) s" }

    package var description: String {
        switch self {
        case .resultCode(let code, let message):
            return "result code \(code) (\(ResultCodes.dataGoKrMeaning(code)))" + (message.isEmpty ? "" : ": \(message)")
        case .odcloudCode(let code, let message):
            return "odcloud code \(code) (\(ResultCodes.odcloudMeaning(code)))" + (message.isEmpty ? "" : ": \(message)")
        case .httpStatus(let status):
            return "HTTP \(status)" + (status == 404 ? " (no such service: check the url)" : "")
        case .malformedPage(let why):
            return "malformed page: \(why)"
        case .transport(let why):
            return "request failed: \(why)"
        case .timedOut(let seconds):
            return "request failed: timed out after \(Self.seconds(seconds)) without the whole answer (timeoutSeconds bounds each request from start to end)"
        case .redirected(let status):
            return "request failed: answered HTTP \(status), a redirect, which is not followed: the request and its key go to the configured host only"
        case .tooLarge(let bytes, let limit):
            return "\(bytes) bytes is more than maxPageBytes (\(limit))"
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .undecodableText(let why):
            return "not text in the expected encoding: \(why)"
        case .quotaReserved(let limit):
            return "quota reserved: the day's \(limit) requests (dailyRequestLimit) are spent; the next are made after midnight in Korea"
        }
    }
}

/// The result codes both services document, with what they mean for an operator.
package enum ResultCodes {
    /// Codes worth retrying; 22 (quota) only after a wait, which the back-off gives.
    static let dataGoKrTransient: Set<String> = ["01", "02", "05", "22", "99"]

    package static func dataGoKrMeaning(_ code: String) -> String {
        switch code {
        case "00": return "normal"
        case "01": return "application error"
        case "02": return "database error"
        case "03": return "no data"
        case "04": return "HTTP error"
        case "05": return "service time-out"
        case "10": return "invalid request parameter"
        case "11": return "mandatory parameter missing"
        case "12": return "no such service"
        case "20": return "access denied"
        case "21": return "service key temporarily disabled"
        case "22": return "request quota exceeded"
        case "30": return "service key not registered"
        case "31": return "service key expired"
        case "32": return "unregistered IP address"
        case "33": return "unsigned call"
        case "99": return "unknown error"
        default: return "undocumented code"
        }
    }

    package static func odcloudMeaning(_ code: Int) -> String {
        switch code {
        case -1: return "internal error"
        case -2: return "bad parameter"
        case -3: return "unregistered service"
        case -4: return "unregistered service key"
        case -9: return "service ended"
        case -10: return "traffic quota exceeded"
        case -401: return "invalid or missing service key"
        default: return "undocumented code"
        }
    }
}
