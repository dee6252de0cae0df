/// Signing in and out, and a person's own account (`/api/v1/me`: password, keys, sessions).
struct AccountFeature: ServerFeature {
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
