import Testing
@testable import AreasControl
@testable import AreasProtocol
@testable import AreasServer
import AreasTestTraits

/// An operation is one question type with a part in each layer: the daemon answers it, areasctl
/// asks and shows it, and its descriptor agrees with what the layers read. A new operation
/// missing a part fails here, not in a switch somewhere.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct OperationLayersTests {
    @Test(arguments: RequestOperation.allCases)
    func everyOperationIsAnsweredAskedAndShown(operation: RequestOperation) {
        #expect(operation.question is any ServedQuestion.Type, "the daemon cannot answer \(operation)")
        #expect(operation.command != nil, "areasctl cannot ask or show \(operation)")
        #expect(ControlCommand.table.command(operation.name) != nil, "areasctl has no command \(operation)")
    }

    @Test(arguments: RequestOperation.allCases)
    func theOperandsAreFieldsTheOperationReads(operation: RequestOperation) {
        let descriptor = operation.descriptor
        #expect(Set(descriptor.operandFields).isSubset(of: descriptor.fields), "\(operation)")
        #expect(descriptor.operands.isEmpty == descriptor.operandFields.isEmpty, "\(operation)")
        #expect(RequestOperation.of(operation.question) == operation)
    }

    @Test func namesAndPathsAreEachOnce() {
        let names = RequestOperation.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        let paths = RequestOperation.allCases.compactMap { operation -> String? in
            switch operation.endpoint {
            case .query(let path), .route(let path): return path
            case .resource(let start, _): return start
            case .socketOnly: return nil
            }
        }
        #expect(Set(paths).count == paths.count)
    }

    /// Only what changes state is privileged, and the read-only HTTP front door never asks it.
    @Test(arguments: RequestOperation.allCases)
    func aPrivilegedOperationIsAskedOnTheSocketOnly(operation: RequestOperation) {
        if operation.isPrivileged { #expect(operation.endpoint == .socketOnly) }
        if operation.endpoint == .socketOnly { #expect(!operation.answerFollowsData) }
    }
}
