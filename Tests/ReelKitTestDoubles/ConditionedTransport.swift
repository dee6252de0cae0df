import Foundation
import ReelKit

/// The real network (any transport, usually URLSession to the live server) with conditions a
/// test sets: every request is logged, a request can be held until the test releases it (a
/// slow answer, to cancel a search in flight), and the n-th request of a method can fail as
/// if the connection dropped.
public actor ConditionedTransport: HTTPTransport {
    public struct Logged: Sendable, Equatable {
        public var method: String
        public var url: URL
        /// True when the caller's task was cancelled while its request was held or sent.
        public var cancelled: Bool
    }

    private let base: any HTTPTransport
    public private(set) var log: [Logged] = []
    private var holdWhere: (@Sendable (HTTPRequestValue) -> Bool)?
    private var held: [CheckedContinuation<Void, Never>] = []
    private var drops: [String: Int] = [:]
    private var counts: [String: Int] = [:]

    public init(base: any HTTPTransport = URLSessionTransport()) {
        self.base = base
    }

    /// Requests matching `predicate` wait until `release()`.
    public func hold(where predicate: @escaping @Sendable (HTTPRequestValue) -> Bool) {
        holdWhere = predicate
    }

    public var heldCount: Int { held.count }

    public func release() {
        holdWhere = nil
        let waiting = held
        held = []
        for continuation in waiting { continuation.resume() }
    }

    /// The `nth` request with `method` (counting from 1, from now on) fails with `.offline`.
    public func drop(_ method: String, nth: Int) {
        counts[method] = 0
        drops[method] = nth
    }

    public func send(_ request: HTTPRequestValue) async throws(ReelAPIError) -> HTTPResponseValue {
        let index = log.count
        log.append(Logged(method: request.method, url: request.url, cancelled: false))
        counts[request.method, default: 0] += 1
        if let nth = drops[request.method], counts[request.method] == nth {
            throw .offline("connection dropped (test)")
        }
        if let holdWhere, holdWhere(request) {
            await withCheckedContinuation { held.append($0) }
        }
        if Task.isCancelled {
            log[index].cancelled = true
            throw .offline("cancelled")
        }
        do {
            return try await base.send(request)
        } catch {
            if Task.isCancelled { log[index].cancelled = true }
            throw error
        }
    }
}
