import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Crowd: CommandQuestion {
    static let presentation = ["--json", "--geojson"]
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        .init(stdout: ResponseFormatter.hotspots(answer.object, width: answer.width), stderr: "", status: 0)
    }
}
