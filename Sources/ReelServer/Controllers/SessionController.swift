import Foundation
import HTTPTypes
import Hummingbird
import ReelModels
import ReelStore

/// Web login and logout. Login is rate-limited per IP and per account (PeerTube's 15 per
/// 5 minutes); an unknown user costs the same bcrypt work as a wrong password, so timing does
/// not reveal which names exist.
struct SessionController {
    let accounts: any AccountStore
    let passwords: any PasswordHasher
    let limiter: any RateLimitStore
    let credentials: CredentialCache
    let configuration: ServerConfiguration
    let now: @Sendable () -> Date

    /// A real bcrypt hash of a random string, verified against when the user does not exist.
    static let decoyHash = "$2b$12$C6UzMDM.H6dfI/f/IKxGhuH2hYk5jM0P7ZYrFz3lI6lE7mGyAxc5a"

    func register(_ routes: APIRoutes) {
        routes.on(.post, "/api/v1/session", access: .public, "Sign in with username and password; sets the session cookie") { request, context in
            let time = now()
            let window = TimeInterval(configuration.loginWindowSeconds)
            let ip = context.remoteAddress ?? "unknown"
            if let retry = try await limiter.hit(key: "login-ip:\(ip)", limit: configuration.loginAttemptsPerIP, window: window, now: time).retryAfter {
                throw APIError.rateLimited(retryAfter: retry)
            }
            let body = try await request.decodeJSON(APILoginRequest.self, context: context)
            guard !body.username.isEmpty, body.username.count <= 64, !body.password.isEmpty, body.password.count <= 1024 else {
                throw APIError.invalidCredentials
            }
            let accountKey = "login-user:\(body.username.lowercased())"
            if let retry = try await limiter.hit(key: accountKey, limit: configuration.loginAttemptsPerAccount, window: window, now: time).retryAfter {
                throw APIError.rateLimited(retryAfter: retry)
            }
            let user = try await accounts.user(name: body.username)
            let hash = try await user.asyncMap { try await accounts.passwordHash(userID: $0.id) } ?? nil
            let verified = await passwords.verify(body.password, hash: hash ?? Self.decoyHash)
            guard let user, hash != nil, verified else { throw APIError.invalidCredentials }
            try await limiter.reset(key: accountKey)

            let token = Credentials.newSessionToken()
            let expires = time.addingTimeInterval(TimeInterval(configuration.sessionDays) * 86_400)
            try await accounts.createSession(userID: user.id, tokenHash: Credentials.hash(token), expiresAt: expires, now: time)
            var headers = HTTPFields()
            headers[.setCookie] = Self.cookie(token, maxAge: configuration.sessionDays * 86_400, secure: Self.isSecure(request))
            return try Response.json(APIUser(id: user.id, name: user.name, role: user.role.rawValue), context: context, headers: headers)
        }
        routes.on(.delete, "/api/v1/session", access: .user, "Sign out: ends the session and clears the cookie") { request, context in
            if let token = AuthMiddleware.cookie(Credentials.sessionCookie, in: request.headers) {
                try await accounts.deleteSession(tokenHash: Credentials.hash(token))
                await credentials.forget("session:" + Credentials.hash(token))
            }
            var headers = HTTPFields()
            headers[.setCookie] = Self.cookie("", maxAge: 0, secure: Self.isSecure(request))
            return Response(status: .noContent, headers: headers)
        }
    }

    static func cookie(_ value: String, maxAge: Int, secure: Bool) -> String {
        var parts = ["\(Credentials.sessionCookie)=\(value)", "Path=/", "Max-Age=\(maxAge)", "HttpOnly", "SameSite=Lax"]
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    /// Behind a TLS-terminating proxy the request arrives as plain HTTP with this header.
    static func isSecure(_ request: Request) -> Bool {
        request.uri.scheme == .https || request.headers[.init("x-forwarded-proto")!]?.lowercased() == "https"
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
