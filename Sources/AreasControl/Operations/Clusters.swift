import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Clusters: CommandQuestion {
    static let presentation = ["--json"]
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] { try operands.box() }
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        .init(stdout: ResponseFormatter.clusters(answer.object, width: answer.width), stderr: "", status: 0)
    }

    static func completing(_ values: inout [(RequestField, JSONValue)]) throws(UsageError) {
        guard values.contains(where: { $0.0 == .zoom }) else {
            throw .wrongArguments("clusters takes --zoom Z, the map's zoom (0 to \(Request.maximumZoom))")
        }
    }
}
