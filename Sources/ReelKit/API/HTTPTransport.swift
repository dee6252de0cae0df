import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange, as plain values (Foundation's `URLRequest` is not `Sendable` everywhere).
public struct HTTPRequestValue: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponseValue: Sendable, Equatable {
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// The seam under the API client: URLSession in apps, a scripted double in unit tests.
/// Throws `ReelAPIError.offline` when no response arrived at all.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequestValue) async throws(ReelAPIError) -> HTTPResponseValue
}

/// URLSession (FoundationNetworking on Linux). Cookies are not stored by the session:
/// the client carries the session token itself, so two clients never share a login.
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession

    public init(timeout: TimeInterval = 20) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    public init(session: URLSession) {
        self.session = session
    }

    public func send(_ value: HTTPRequestValue) async throws(ReelAPIError) -> HTTPResponseValue {
        var request = URLRequest(url: value.url)
        request.httpMethod = value.method
        request.httpBody = value.body
        request.httpShouldHandleCookies = false
        for (name, field) in value.headers { request.setValue(field, forHTTPHeaderField: name) }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await exchange(request)
        } catch {
            throw .offline(Self.describe(error))
        }
        guard let http = response as? HTTPURLResponse else { throw .decoding("not an HTTP response") }
        var headers: [String: String] = [:]
        for (name, field) in http.allHeaderFields {
            if let name = name as? String, let field = field as? String { headers[name] = field }
        }
        return HTTPResponseValue(status: http.statusCode, headers: headers, body: data)
    }

    #if canImport(FoundationNetworking)
    /// FoundationNetworking's `data(for:)` cancels its task from the cancellation handler, which
    /// runs under the Swift task's status lock, and `cancel()` waits for the session's queue;
    /// that queue, finishing the same download at that moment, waits for the lock to resume the
    /// caller. Seen as a `swift test` that hung for good (a screen model's `async let` cancelled
    /// when a sibling threw). Here the cancel is handed to another queue, so neither waits.
    private func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let running = RunningTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                running.start(task)
            }
        } onCancel: {
            running.cancel()
        }
    }
    #else
    private func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await session.data(for: request)
    }
    #endif

    static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError { return "\(urlError.code.rawValue) \(urlError.localizedDescription)" }
        return String(describing: error)
    }
}

#if canImport(FoundationNetworking)
/// A data task and whether its caller was cancelled, whichever comes first; `cancel()` on the
/// task always runs on another queue (see `URLSessionTransport.exchange`).
private final class RunningTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func start(_ task: URLSessionDataTask) {
        let cancelled = lock.withLock {
            self.task = task
            return self.cancelled
        }
        task.resume()
        if cancelled { Self.cancelElsewhere(task) }
    }

    func cancel() {
        let task: URLSessionDataTask? = lock.withLock {
            cancelled = true
            return self.task
        }
        if let task { Self.cancelElsewhere(task) }
    }

    private static func cancelElsewhere(_ task: URLSessionDataTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}
#endif
