import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Health: CommandQuestion {
    static let presentation = ["--json"]

    /// Exit 0 only when the daemon says healthy: loaded, fresh, every source taken.
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        let object = answer.object
        let refreshing = object.bool(.refreshing) == true ? ", refreshing now" : ""
        guard object.bool(.healthy) == true else {
            return .init(stdout: "", stderr: "unhealthy: \(object.string(.problem) ?? "no data loaded yet")\(refreshing)\n", status: 1)
        }
        let age = object.double(.dataAgeSeconds).map { " (data \(MeasurementText.duration($0)) old)" } ?? ""
        return .init(stdout: "ok: \(object.int(.areas) ?? 0) areas loaded\(age)\(refreshing)\n", stderr: "", status: 0)
    }

    static func jsonStatus(_ answer: ResponseFormatter.Object) -> Int32 { answer.bool(.healthy) == true ? 0 : 1 }
}
