import Foundation
import ReelModels

/// How the client proves who it is. An API key (from `reelhouse key create`) suits a device
/// paired once; a session comes from signing in with a username and password.
public enum ReelCredentials: Sendable, Equatable {
    case none
    case apiKey(String)
    /// The `reelhouse_session` cookie's value, sent back as a `Cookie` header.
    case session(String)
}

/// Typed async access to every route of the server's API v1. Responses decode into the same
/// `ReelModels` types the server encodes (their snake_case keys are spelled out in
/// `CodingKeys`); request bodies are encoded with `.convertToSnakeCase` because the server
/// decodes them with `.convertFromSnakeCase`.
public actor ReelClient {
    public nonisolated let baseURL: URL
    public internal(set) var credentials: ReelCredentials
    let transport: any HTTPTransport
    let decoder: JSONDecoder
    let encoder: JSONEncoder

    static let sessionCookie = "reelhouse_session"

    public init(baseURL: URL, credentials: ReelCredentials = .none, transport: any HTTPTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.transport = transport
        decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
    }

    public func use(_ credentials: ReelCredentials) {
        self.credentials = credentials
    }

    /// A server path (`/media/…`, `/img/…`, as every `APIMedia` field is) or a relative URI,
    /// resolved against the base URL.
    public nonisolated func url(for path: String) -> URL? {
        URL(string: path, relativeTo: baseURL)?.absoluteURL
    }

    // MARK: - Plumbing

    /// Sends a request and returns the body of a 2xx answer; anything else becomes the
    /// matching `ReelAPIError`.
    func send(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, authenticated: Bool = true,
        extraHeaders: [String: String] = [:]
    ) async throws(ReelAPIError) -> HTTPResponseValue {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            throw .rejected(status: 0, code: "bad_base_url", message: "\(baseURL) is not a URL")
        }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.percentEncodedPath = basePath + path
        let items = query.filter { $0.value != nil }
        components.queryItems = items.isEmpty ? nil : items
        guard let url = components.url else { throw .rejected(status: 0, code: "bad_path", message: path) }
        var headers = ["Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        if authenticated { headers.merge(authorizationHeaders(), uniquingKeysWith: { _, new in new }) }
        headers.merge(extraHeaders, uniquingKeysWith: { _, extra in extra })
        let response = try await transport.send(HTTPRequestValue(method: method, url: url, headers: headers, body: body))
        guard (200..<300).contains(response.status) else { throw Self.error(for: response) }
        return response
    }

    func authorizationHeaders() -> [String: String] {
        switch credentials {
        case .none: [:]
        case .apiKey(let key): ["api-key": key]
        // The server refuses cookie-authenticated writes that do not name its own origin (what
        // a browser on another site cannot do); this client speaks for that origin.
        case .session(let token): ["Cookie": "\(Self.sessionCookie)=\(token)", "Origin": origin]
        }
    }

    /// `scheme://host[:port]` of the server, as a browser writes `Origin`.
    var origin: String {
        var components = URLComponents()
        components.scheme = baseURL.scheme
        components.host = baseURL.host
        components.port = baseURL.port
        return components.string ?? baseURL.absoluteString
    }

    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponseValue) throws(ReelAPIError) -> T {
        do {
            return try decoder.decode(T.self, from: response.body)
        } catch {
            throw .decoding("\(T.self): \(error)")
        }
    }

    func encode(_ value: some Encodable) throws(ReelAPIError) -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            throw .decoding("could not encode \(type(of: value)): \(error)")
        }
    }

    func json<T: Decodable>(
        _ type: T.Type, _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil
    ) async throws(ReelAPIError) -> T {
        try decode(T.self, from: try await send(method, path, query: query, body: body))
    }

    /// Maps a non-2xx response to an error, reading the server's error body when there is one.
    static func error(for response: HTTPResponseValue) -> ReelAPIError {
        let detail = try? JSONDecoder().decode(APIErrorBody.self, from: response.body).error
        let code = detail?.code ?? "http_\(response.status)"
        let message = detail?.message ?? (String(data: response.body.prefix(200), encoding: .utf8) ?? "")
        switch response.status {
        case 401: return .unauthorized(code: code, message: message)
        case 403: return .forbidden(message: message)
        case 404: return .notFound(message: message)
        case 410: return .expired(message: message)
        case 429: return .rateLimited(retryAfter: response.headers["retry-after"].flatMap { Int($0) })
        case 500...: return .server(status: response.status, message: message)
        default: return .rejected(status: response.status, code: code, message: message)
        }
    }
}
