import AreasTestTraits
import Dispatch
import Foundation
import Testing

/// The trait every suite takes: its bodies run off the cooperative pool, so a body that blocks
/// holds no thread the other tests need.
@Suite(.offThePool, .timeLimit(.minutes(1))) struct OffThePoolTraitTests {
    @Test func aSynchronousBodyRunsOnTheTestBodyQueue() {
        #expect(TestBodyExecutor.isCurrent)
    }

    @Test func anAsynchronousBodyAndItsChildTasksRunThereToo() async {
        #expect(TestBodyExecutor.isCurrent)
        async let child = TestBodyExecutor.isCurrent
        #expect(await child)
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { TestBodyExecutor.isCurrent } }
            for await onIt in group { #expect(onIt) }
        }
    }

    /// More bodies blocked at once than the pool has threads: each waits for all the others,
    /// which on the pool's threads (one per core) could never all run.
    @Test func blockedBodiesDoNotStarveEachOther() async {
        #expect(await Self.allArrive(blocked: 8, beside: 0))
    }

    /// The same beside twice as many bodies busy on the CPU as there are cores (a brute-force
    /// comparison, a loaded machine): the blocked ones still get threads at once. On a Dispatch
    /// queue's shared pool they wait until the busy ones end.
    @Test func blockedBodiesGetThreadsBesideBusyOnes() async {
        #expect(await Self.allArrive(blocked: 8, beside: 2 * ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Starts `busy` child tasks that spin until released (20 s at most), then `blocked` that
    /// each wait for all of them to have started; whether every blocked one started within 10 s.
    static func allArrive(blocked: Int, beside busy: Int) async -> Bool {
        let stop = Flag()
        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        return await withTaskGroup(of: Bool.self) { group in
            let spinUntil = Date().addingTimeInterval(20)
            for _ in 0..<busy {
                group.addTask {
                    var turns = 0
                    while !stop.isSet && Date() < spinUntil { turns &+= 1 }
                    return turns >= 0
                }
            }
            for _ in 0..<blocked {
                group.addTask {
                    arrived.signal()
                    return release.wait(timeout: .now() + 30) == .success
                }
            }
            let deadline = DispatchTime.now() + 10
            var all = true
            for _ in 0..<blocked where arrived.wait(timeout: deadline) != .success { all = false }
            stop.set()
            for _ in 0..<blocked { release.signal() }
            for await one in group { all = all && one }
            return all
        }
    }
}

/// A flag one task sets and others read.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
