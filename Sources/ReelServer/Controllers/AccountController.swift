import Foundation
import Hummingbird
import ReelModels
import ReelStore

/// What a signed-in person manages about their own account: the password and their API keys.
struct AccountController {
    let accounts: any AccountStore
    let passwords: any PasswordHasher
    let limiter: any RateLimitStore
    let credentials: CredentialCache
    let settings: AccountSettings
    let now: @Sendable () -> Date

    func register(_ routes: APIRoutes) {
        routes.on(.put, "/api/v1/me/password", access: .user, "Change the password (current_password, new_password); other sessions are signed out") { request, context in
            try await changePassword(request, context)
        }
        routes.on(.get, "/api/v1/me/keys", access: .user, "This user's API keys that are not revoked (never the keys themselves)") { _, context in
            let user = try context.requireUser()
            let keys = try await accounts.apiKeys(userID: user.id).filter { $0.revokedAt == nil }.map(Self.wire)
            return try Response.json(APIKeyList(keys: keys), context: context)
        }
        routes.on(.post, "/api/v1/me/keys", access: .user, "Create an API key (name); the answer is the only time its secret is shown") { request, context in
            let user = try context.requireUser()
            let body = try await request.decodeJSON(APIKeyCreateRequest.self, context: context)
            let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, name.count <= APIKeyCreateRequest.maximumNameLength, !name.contains(where: \.isNewline) else {
                throw APIError.badRequest("a key name is 1 to \(APIKeyCreateRequest.maximumNameLength) characters on one line")
            }
            let (record, secret) = try await accounts.mintAPIKey(userID: user.id, name: name, now: now())
            return try Response.json(APICreatedKey(key: Self.wire(record), secret: secret), status: .created, context: context)
        }
        routes.on(.delete, "/api/v1/me/keys/{id}", access: .user, "Revoke one of this user's API keys") { _, context in
            let user = try context.requireUser()
            guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
                throw APIError.badRequest("the key id must be a positive integer")
            }
            // Another user's key is answered exactly like a key that does not exist.
            guard try await accounts.apiKeys(userID: user.id).contains(where: { $0.id == id && $0.revokedAt == nil }) else {
                throw APIError.notFound("API key \(id)")
            }
            try await accounts.revokeAPIKey(id: id, now: now())
            await credentials.forget { $0.credential == .apiKey(id: id) }
            return HTTPResponse.Status.noContent
        }
    }

    /// Rate-limited per account like login (a stolen session must not become a bcrypt oracle);
    /// the session that asked stays signed in, every other one of this user is ended.
    private func changePassword(_ request: Request, _ context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        let time = now()
        let limitKey = "password-user:\(user.id)"
        if let retry = try await limiter.hit(key: limitKey, limit: settings.loginAttemptsPerAccount, window: TimeInterval(settings.loginWindowSeconds), now: time).retryAfter {
            throw APIError.rateLimited(retryAfter: retry)
        }
        let body = try await request.decodeJSON(APIPasswordChangeRequest.self, context: context)
        let range = APIPasswordChangeRequest.minimumLength...APIPasswordChangeRequest.maximumLength
        guard range.contains(body.newPassword.count) else {
            throw APIError.badRequest("the new password must be \(range.lowerBound) to \(range.upperBound) characters")
        }
        guard body.currentPassword.count <= APIPasswordChangeRequest.maximumLength,
              let hash = try await accounts.passwordHash(userID: user.id),
              await passwords.verify(body.currentPassword, hash: hash)
        else { throw APIError.forbidden("the current password is not right") }
        try await limiter.reset(key: limitKey)

        var kept: String?
        if context.identity?.credential == .session, let token = AuthMiddleware.cookie(Credentials.sessionCookie, in: request.headers) {
            kept = Credentials.hash(token)
        }
        try await accounts.setPasswordHash(userID: user.id, passwordHash: try await passwords.hash(body.newPassword), keepingSession: kept)
        await credentials.forget(keeping: kept.map { "session:" + $0 }) { $0.user.id == user.id && $0.credential == .session }
        return .noContent
    }

    static func wire(_ record: APIKeyRecord) -> APIKey {
        APIKey(id: record.id, name: record.name, prefix: record.prefix, createdAt: record.createdAt, lastUsedAt: record.lastUsedAt)
    }
}
