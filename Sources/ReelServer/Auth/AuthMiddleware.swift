import Foundation
import HTTPTypes
import Hummingbird
import ReelModels
import ReelStore

/// Works out who is calling from the `api-key` header (what seed 000 sends), an
/// `Authorization: Bearer` token or the session cookie, and applies the per-credential API
/// rate limit. It never rejects an anonymous request itself: each route's declared access
/// decides (see `APIRoutes`). A credential that is presented but wrong is a 401 at once, so a
/// typo'd key is not silently treated as "anonymous".
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let accounts: any AccountStore
    /// Bad keys, counted exactly in the shared store.
    let limiter: any RateLimitStore
    /// The API limit, counted on every call: by this node, shared at most once a second.
    let apiLimiter: BatchedRateLimitStore
    let cache: CredentialCache
    let settings: AccountSettings
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let time = now()
        if let key = request.headers[.apiKey] ?? Self.bearer(request.headers[.authorization]) {
            let digest = Credentials.hash(key)
            if let identity = await cache.lookup("key:" + digest, now: time) {
                context.identity = identity
            } else if let (user, record) = try await accounts.authenticate(apiKeyHash: digest, now: time) {
                let identity = Identity(user: user, credential: .apiKey(id: record.id))
                await cache.store(identity, for: "key:" + digest, now: time)
                context.identity = identity
            } else {
                try await limitAnonymous(context, time: time)
                throw APIError.invalidAPIKey
            }
            if case .apiKey(let id) = context.identity?.credential, Self.isAPICall(request) { try await limit("key:\(id)", time: time) }
        } else if let token = Self.cookie(Credentials.sessionCookie, in: request.headers) {
            let digest = Credentials.hash(token)
            if let identity = await cache.lookup("session:" + digest, now: time) {
                context.identity = identity
            } else if let user = try await accounts.authenticate(sessionTokenHash: digest, now: time) {
                let identity = Identity(user: user, credential: .session)
                await cache.store(identity, for: "session:" + digest, now: time)
                context.identity = identity
            }
            if let user = context.identity?.user, Self.isAPICall(request) { try await limit("user:\(user.id)", time: time) }
        }
        return try await next(request, context)
    }

    /// The API limit counts API calls only. A browser sends its session cookie with every
    /// same-origin request, so counting the shell's files, posters and signed media segments too
    /// would throttle someone who is merely swiping (each swipe fetches several segments).
    static func isAPICall(_ request: Request) -> Bool {
        request.uri.path.hasPrefix("/api/")
    }

    private func limit(_ key: String, time: Date) async throws {
        if let retry = try await apiLimiter.hit(key: key, limit: settings.apiRequestsPerMinute, window: 60, now: time).retryAfter {
            throw APIError.rateLimited(retryAfter: retry)
        }
    }

    /// Guessing keys costs a failed attempt per IP.
    private func limitAnonymous(_ context: Context, time: Date) async throws {
        let ip = context.remoteAddress ?? "unknown"
        if let retry = try await limiter.hit(key: "badkey:\(ip)", limit: settings.loginAttemptsPerIP, window: TimeInterval(settings.loginWindowSeconds), now: time).retryAfter {
            throw APIError.rateLimited(retryAfter: retry)
        }
    }

    static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.lowercased().hasPrefix("bearer ") else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    static func cookie(_ name: String, in headers: HTTPFields) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    let value = parts[1].trimmingCharacters(in: .whitespaces)
                    return value.isEmpty ? nil : value
                }
            }
        }
        return nil
    }
}

extension HTTPField.Name {
    static let apiKey = HTTPField.Name("api-key")!
}
