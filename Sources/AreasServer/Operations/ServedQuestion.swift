import AreasCore
import AreasProtocol

/// A question the daemon answers: each operation's question type conforms in a file of its
/// own here, beside the ones that show it in areasctl. A question type without this
/// conformance is answered with an `internal` error, and the operations' tests fail on it.
protocol ServedQuestion: OperationQuestion {
    /// Writes the answer's object (without its newline) or throws the error it is.
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError)
}

/// What an answer is made from: the service, the view of what it serves taken for this
/// request, and the form the answer is asked in.
struct Asked {
    let service: AreaService
    let view: AreaService.View
    let form: AnswerForm

    var state: ServingState { view.state }
    var maxResults: Int { view.maxResults }

    /// Data must be loaded to answer from it; without, why not.
    func requireData() throws(RequestError) {
        guard state.hasData else { throw RequestError(.unavailable, service.noDataReason(state)) }
    }

    /// Where a question about the data is asked from (a position, or a name found as `search`
    /// finds it); data must be loaded.
    func origin(of position: QueryPosition) throws(RequestError) -> AreaService.Origin {
        try requireData()
        return try service.origin(of: position, state: state, view: view)
    }

    /// The region a question names, read with the operator's aliases.
    func resolved(_ region: Region) -> Region { region.resolved(view.aliases) }

    /// How the answer's region was read, or why an empty answer is empty.
    func note(_ empty: Bool, _ region: Region) -> AnswerNote? {
        AreaService.note(empty, region, served: view)
    }
}

extension AreaService {
    /// Each operation's answering type, by its index: looked up once, so a request costs no
    /// conformance lookup.
    private static let served: [(any ServedQuestion.Type)?] = RequestOperation.allCases.map { $0.question as? any ServedQuestion.Type }

    /// Answers `request` into `writer`, its question by its own conformance.
    func answer(_ request: Request, asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        guard let type = Self.served[request.operation.index] else {
            throw RequestError(.internal, "the daemon has no answer for \(request.operation.name)")
        }
        try Self.answer(request.question, as: type, asked: asked, into: &writer)
    }

    /// `question` opened to its own type, which is `Question` (the list gives the type by the
    /// operation): compared as types, then taken as it is, without a dynamic cast per request.
    private static func answer<Question: ServedQuestion>(_ question: some OperationQuestion, as type: Question.Type, asked: Asked,
                                                         into writer: inout JSONWriter) throws(RequestError) {
        guard Swift.type(of: question) == Question.self else {
            throw RequestError(.internal, "the daemon read a \(Question.descriptor.name) question of another type")
        }
        try unsafeBitCast(question, to: Question.self).answer(asked, into: &writer)
    }
}
