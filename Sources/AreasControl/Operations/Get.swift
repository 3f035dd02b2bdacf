import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Get: CommandQuestion {
    static let presentation = ResponseFormatter.listPresentation
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] {
        guard operands.texts.count == 1 else { throw .wrongArguments("get takes ID") }
        return [(.id, .string(operands.texts[0]))]
    }

    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        typealias Object = ResponseFormatter.Object
        guard case .object(let first)? = answer.object.array(.areas).first else { return .init(stdout: "", stderr: "", status: 1) }
        let stdout: String = switch answer.command.format {
        case .geojson: ResponseFormatter.geoJSON(.object(answer.response))
        case .tsv: ResponseFormatter.tsv([Object(first)], idsOnly: false)
        case .csv: ResponseFormatter.csv([Object(first)], idsOnly: false)
        case .ndjson: ResponseFormatter.ndjson([.object(first)])
        case .table, .json: ResponseFormatter.detail(Object(first))
        }
        return .init(stdout: stdout, stderr: "", status: 0)
    }
}
