import AreasSystem
import Foundation

/// Answers recorded from a geocoder, served in its place so the bundled samples run offline
/// and with no key: a JSON object from `"address:TEXT"` or `"place:TEXT"` to the body the
/// provider answered. The provider's own reader reads them, as it reads a live answer; a
/// question with no recording is not found.
package struct RecordedGeocoderAnswers: Sendable {
    private let bodies: [String: [UInt8]]

    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    package init(path: String) throws(Failure) {
        let bytes: [UInt8]?
        do throws(WholeFile.ReadFailure) { bytes = try WholeFile.read(path, limit: 64 << 20) } catch {
            throw Failure(description: "cannot read the recorded geocoder answers \(path): \(error)")
        }
        guard let bytes else { throw Failure(description: "the recorded geocoder answers \(path) do not exist") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw Failure(description: "the recorded geocoder answers \(path) are not a JSON object")
        }
        var bodies: [String: [UInt8]] = [:]
        for (question, answer) in object {
            guard let body = try? JSONSerialization.data(withJSONObject: answer) else {
                throw Failure(description: "the recorded answer to '\(question)' in \(path) is not a JSON object")
            }
            bodies[question] = [UInt8](body)
        }
        self.bodies = bodies
    }

    func reply(to question: GeocodeQuestion, request: GeocodeRequest, provider: any GeocodeProvider) -> GeocodeReply {
        guard let body = bodies["\(question.kind.rawValue):\(question.text)"] else { return .notFound }
        return provider.reply(status: 200, body: body)
    }
}
