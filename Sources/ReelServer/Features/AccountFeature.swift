/// Signing in and out, and a person's own account (`/api/v1/me`: password, keys, sessions).
struct AccountFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
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
    }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        SessionController(
            accounts: dependencies.accounts, passwords: dependencies.passwords, limiter: server.limiter, credentials: server.credentials,
            configuration: server.configuration, now: server.now
        )
        .register(server.routes("session"))
        AccountController(
            accounts: dependencies.accounts, passwords: dependencies.passwords, limiter: server.limiter, credentials: server.credentials,
            configuration: server.configuration, now: server.now
        )
        .register(server.routes("me"))
    }
}
