/// Seed 000's media routes (`/videos/…`: playlists and segments its player fetches without credentials), when the setting turns them on.
struct CompatFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
            .init("compatRoutes", .boolean, env: "REELHOUSE_COMPAT_ROUTES", example: "true",
                  "Serve seed 000's compatibility routes (/api/feed/random, /videos/…): their playlists and encrypted segments need no credentials."),
            .init("compatKeyScheme", .text, env: "REELHOUSE_COMPAT_KEY_SCHEME", example: "vault",
                  "URL scheme of key URIs in compatibility playlists."),
        ]
    }

    func register(in server: FeatureContext) {
        guard server.configuration.compatRoutes else { return }
        let dependencies = server.dependencies
        CompatMediaController(
            library: dependencies.library, grants: dependencies.libraries, storage: dependencies.storage,
            keyScheme: server.configuration.compatKeyScheme, now: server.now
        )
        .register(server.routes("compat"))
    }
}
