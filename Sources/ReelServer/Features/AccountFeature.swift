/// Signing in and out, and a person's own account (`/api/v1/me`: password, keys, sessions).
struct AccountFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { AccountSettings.self }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        SessionController(
            accounts: dependencies.accounts, passwords: dependencies.passwords, limiter: server.limiter, credentials: server.credentials,
            settings: server.configuration[AccountSettings.self], now: server.now
        )
        .register(server.routes("session"))
        AccountController(
            accounts: dependencies.accounts, passwords: dependencies.passwords, limiter: server.limiter, credentials: server.credentials,
            settings: server.configuration[AccountSettings.self], now: server.now
        )
        .register(server.routes("me"))
    }
}

/// Signing in: the login limits, the API limit, sessions and the credential memory.
public struct AccountSettings: FeatureSettings {
    /// Login limits per `loginWindowSeconds` (see `SessionController`): attempts per address
    /// (PeerTube: 15 per 5 min), wrong passwords per account from one address, and the
    /// account's backstop over all addresses (it refuses only addresses that failed themselves).
    public var loginAttemptsPerIP = 15
    public var loginAttemptsPerAccount = 15
    public var loginFailuresPerAccount = 100
    public var loginWindowSeconds = 300
    /// API requests per credential per minute.
    public var apiRequestsPerMinute = 1200
    /// Comma-separated addresses of the proxies in front of this node (the nginx edge, a CDN):
    /// from them, `X-Forwarded-For` names the client that per-IP limits count.
    public var trustedProxies = ""
    public var sessionDays = 30
    /// Seconds a verified key or session is remembered per node (a revocation takes effect
    /// within this time); 0 checks the database on every request.
    public var credentialCacheSeconds = 5

    public init() {}

    public static let declarations: [ConfigurationSetting] = [
        .init("loginAttemptsPerIP", .integer, env: "REELHOUSE_LOGIN_ATTEMPTS_PER_IP", example: "5", "Login attempts per IP per window."),
        .init("loginAttemptsPerAccount", .integer, env: "REELHOUSE_LOGIN_ATTEMPTS_PER_ACCOUNT", example: "5",
              "Wrong passwords for one account from one address per window."),
        .init("loginFailuresPerAccount", .integer, env: "REELHOUSE_LOGIN_FAILURES_PER_ACCOUNT", example: "50",
              "Wrong passwords for one account from all addresses per window; past it, only addresses with no failures may try (the owner is never locked out)."),
        .init("loginWindowSeconds", .integer, env: "REELHOUSE_LOGIN_WINDOW", example: "60", "The login rate-limit window."),
        .init("apiRequestsPerMinute", .integer, env: "REELHOUSE_API_REQUESTS_PER_MINUTE", example: "100",
              "API requests per credential per minute."),
        .init("trustedProxies", .text, env: "REELHOUSE_TRUSTED_PROXIES", example: "127.0.0.1",
              "Addresses of the proxies in front of this node (comma-separated): their X-Forwarded-For names the client per-IP limits count."),
        .init("sessionDays", .integer, env: "REELHOUSE_SESSION_DAYS", example: "7", "How long a browser session lasts."),
        .init("credentialCacheSeconds", .integer, env: "REELHOUSE_CREDENTIAL_CACHE_SECONDS", example: "0",
              "How long a node remembers a verified key or session (a revocation takes this long)."),
    ]

    public func validate() throws(ConfigurationError) {
        guard loginAttemptsPerIP >= 1, loginAttemptsPerAccount >= 1, loginFailuresPerAccount >= 1 else {
            throw ConfigurationError("loginAttemptsPerIP, loginAttemptsPerAccount and loginFailuresPerAccount must be at least 1")
        }
    }
}
