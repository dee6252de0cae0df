import Foundation
import HTTPTypes
import Hummingbird
import ReelModels
import ReelStore

/// Web login and logout. An unknown user costs the same bcrypt work as a wrong password, so
/// timing does not reveal which names exist. Limits follow the OWASP Authentication Cheat Sheet,
/// so that guessing is slow and nobody can lock the owner out:
/// - every attempt from an address counts against `loginAttemptsPerIP`;
/// - wrong passwords for one account from one address against `loginAttemptsPerAccount`;
/// - wrong passwords for one account from all addresses against the slower backstop
///   `loginFailuresPerAccount`, which refuses only addresses that have failed for that account
///   themselves: a correct password from an address with no failures always gets through.
struct SessionController {
    let accounts: any AccountStore
    let passwords: any PasswordHasher
    let limiter: any RateLimitStore
    let credentials: CredentialCache
    let settings: AccountSettings
    let now: @Sendable () -> Date

    /// A real bcrypt hash of a random string, verified against when the user does not exist.
    static let decoyHash = "$2b$12$C6UzMDM.H6dfI/f/IKxGhuH2hYk5jM0P7ZYrFz3lI6lE7mGyAxc5a"

    func register(_ routes: APIRoutes) {
        routes.on(.post, "/api/v1/session", access: .public, "Sign in with username and password; sets the session cookie") { request, context in
            let time = now()
            let window = TimeInterval(settings.loginWindowSeconds)
            let ip = context.remoteAddress ?? "unknown"
            if let retry = try await limiter.hit(key: "login-ip:\(ip)", limit: settings.loginAttemptsPerIP, window: window, now: time).retryAfter {
                throw APIError.rateLimited(retryAfter: retry)
            }
            let body = try await request.decodeJSON(APILoginRequest.self, context: context)
            guard !body.username.isEmpty, body.username.count <= 64, !body.password.isEmpty, body.password.count <= 1024 else {
                throw APIError.invalidCredentials
            }
            let account = body.username.lowercased()
            let (pairKey, accountKey) = ("login-pair:\(account):\(ip)", "login-account:\(account)")
            // Checked without counting: only wrong passwords count against these two.
            if let retry = try await limiter.held(key: pairKey, reaches: settings.loginAttemptsPerAccount, window: window, now: time) {
                throw APIError.rateLimited(retryAfter: retry)
            }
            if let retry = try await limiter.held(key: accountKey, reaches: settings.loginFailuresPerAccount, window: window, now: time),
               try await limiter.held(key: pairKey, reaches: 1, window: window, now: time) != nil {
                throw APIError.rateLimited(retryAfter: retry)
            }
            let user = try await accounts.user(name: body.username)
            let stored = try await user.asyncMap { try await accounts.passwordHash(userID: $0.id) } ?? nil
            // A disabled account's hash verifies nothing; the decoy keeps its answer as slow as any other.
            let hash = stored.flatMap { AccountLock.isLocked($0) ? nil : $0 }
            let verified = await passwords.verify(body.password, hash: hash ?? Self.decoyHash)
            guard let user, hash != nil, verified else {
                _ = try await limiter.hit(key: pairKey, limit: .max, window: window, now: time)
                _ = try await limiter.hit(key: accountKey, limit: .max, window: window, now: time)
                throw APIError.invalidCredentials
            }
            // This address's failures are forgiven; the account's backstop keeps counting others'.
            try await limiter.reset(key: pairKey)

            let token = Credentials.newSessionToken()
            let expires = time.addingTimeInterval(TimeInterval(settings.sessionDays) * 86_400)
            try await accounts.createSession(userID: user.id, tokenHash: Credentials.hash(token), expiresAt: expires, now: time)
            var headers = HTTPFields()
            headers[.setCookie] = Self.cookie(token, maxAge: settings.sessionDays * 86_400, secure: Self.isSecure(request))
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
