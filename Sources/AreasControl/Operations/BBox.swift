import AreasCore
import AreasProtocol
import AreasSystem

extension Request.BBox: CommandQuestion {
    static let presentation = ResponseFormatter.listPresentation
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] { try operands.box() }
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output { ResponseFormatter.areaList(answer) }
}
