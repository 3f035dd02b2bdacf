import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Near: CommandQuestion {
    static let presentation = ResponseFormatter.listPresentation
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] { try operands.position() }
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output { ResponseFormatter.areaList(answer) }

    /// The request takes k = 0 (an answer of no areas); a person typing it meant something else.
    func checkTyped() throws(UsageError) {
        if k == 0 { throw .wrongArguments("-k 0 asks for no areas: give -k from 1 to \(Request.maximumK)") }
    }
}
