/// Seed 000's media routes (`/videos/…`: playlists and segments its player fetches without credentials), when the setting turns them on.
struct CompatFeature: ServerFeature {
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
