import AreasCore
import AreasProtocol
import Foundation

/// Fetches every page of one source: the first page for the total, then the rest with a
/// bounded number of requests in flight, retrying transient failures with back-off.
///
/// It returns either every page of the source or an error: never a partial set taken as whole.
package struct PageFetcher: Sendable {
    package let source: SourceConfig
    package let transport: any PageTransport
    private let decoder: any PageDecoder

    package init(source: SourceConfig, transport: any PageTransport) {
        self.source = source
        self.transport = transport
        self.decoder = source.decoder
    }

    /// What a complete fetch produced.
    package struct Fetched: Sendable {
        package var records: [[Field]]
        package var pages: Int
        package var retries: Int
        package var totalCount: Int?
    }

    /// A source that could not be fetched completely.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var page: Int
        package var error: UpstreamError
        package var attempts: Int

        package var description: String {
            "page \(page): \(error)" + (attempts > 1 ? " (after \(attempts) attempts)" : "")
        }
    }

    package func fetchAll() async throws(Failure) -> Fetched {
        let first = try await fetch(page: 1)
        var pages = [first.page]
        var retries = first.retries
        guard !first.page.isPastEnd, !first.page.records.isEmpty else {
            return Fetched(records: [], pages: 1, retries: retries, totalCount: first.page.totalCount)
        }
        if let total = first.page.totalCount {
            // Trust the rows a page really holds, not the size asked for: a gateway may cap it.
            let perPage = Swift.max(1, Swift.min(source.pageSize, first.page.records.count))
            let lastPage = Swift.min((total + perPage - 1) / perPage, source.maxPages)
            if lastPage > 1 {
                let rest = try await fetchConcurrently(2...lastPage)
                for item in rest {
                    retries += item.retries
                    if item.page.isPastEnd || item.page.records.isEmpty { break }
                    pages.append(item.page)
                }
            }
        } else {
            // No total: one page after another until an empty one.
            var number = 2
            while number <= source.maxPages {
                let item = try await fetch(page: number)
                retries += item.retries
                if item.page.isPastEnd || item.page.records.isEmpty { break }
                pages.append(item.page)
                number += 1
            }
        }
        return Fetched(records: pages.flatMap(\.records), pages: pages.count, retries: retries, totalCount: first.page.totalCount)
    }

    /// Pages in `range`, in order, with at most `concurrency` requests in flight.
    private func fetchConcurrently(_ range: ClosedRange<Int>) async throws(Failure) -> [(page: UpstreamPage, retries: Int)] {
        typealias Outcome = (number: Int, result: Result<(page: UpstreamPage, retries: Int), Failure>)
        let outcome: Result<[Int: (page: UpstreamPage, retries: Int)], Failure> = await withTaskGroup(of: Outcome.self) { group in
            var next = range.lowerBound
            var last = range.upperBound
            var running = 0
            var done: [Int: (page: UpstreamPage, retries: Int)] = [:]
            while true {
                while running < source.concurrency && next <= last {
                    let number = next
                    next += 1
                    running += 1
                    group.addTask { (number, await self.fetchResult(page: number)) }
                }
                guard running > 0, let finished = await group.next() else { break }
                running -= 1
                switch finished.result {
                case .success(let item):
                    done[finished.number] = item
                    // An empty page ends the data: ask for nothing after it.
                    if item.page.isPastEnd || item.page.records.isEmpty { last = Swift.min(last, finished.number) }
                case .failure(let failure):
                    group.cancelAll()
                    return .failure(failure)
                }
            }
            return .success(done)
        }
        let done = try outcome.get()
        return done.keys.sorted().compactMap { done[$0] }
    }

    private func fetchResult(page number: Int) async -> Result<(page: UpstreamPage, retries: Int), Failure> {
        do {
            return .success(try await fetch(page: number))
        } catch {
            return .failure(error)
        }
    }

    /// One page, retried while the failure is transient and tries remain.
    private func fetch(page number: Int) async throws(Failure) -> (page: UpstreamPage, retries: Int) {
        var attempt = 0
        while true {
            do throws(UpstreamError) {
                return (try await fetchOnce(page: number), attempt)
            } catch {
                attempt += 1
                guard error.isTransient, attempt <= source.retries, !Task.isCancelled else {
                    throw Failure(page: number, error: error, attempts: attempt)
                }
                let delay = Self.retryDelay(first: source.retryDelaySeconds, attempt: attempt)
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            }
        }
    }

    /// The wait before try `attempt + 1`: `first` doubled for each try before, times a random
    /// factor from 0.5 to 1.5, so sources that failed together do not retry together.
    static func retryDelay(first: Double, attempt: Int, jitter: Double = .random(in: 0.5...1.5)) -> Double {
        first * pow(2, Double(attempt - 1)) * jitter
    }

    /// Decides on the body, not the status: the gateway sends its error envelope with 200.
    private func fetchOnce(page number: Int) async throws(UpstreamError) -> UpstreamPage {
        guard let response = try await transport.fetch(page: number, size: source.pageSize) else {
            return UpstreamPage(records: [], totalCount: nil, isPastEnd: true)
        }
        if (200...299).contains(response.status) {
            return try decoder.decode(response.body)
        }
        do {
            _ = try decoder.decode(response.body)
        } catch .resultCode(let code, let message) {
            throw .resultCode(code, message: message)
        } catch .odcloudCode(let code, let message) {
            throw .odcloudCode(code, message: message)
        } catch {}
        throw .httpStatus(response.status)
    }
}
