/// Signed media (playlists, segments, keys, images) and the edge's check of the same tokens.
struct MediaFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
            .init("mediaTokenWindowSeconds", .integer, env: "REELHOUSE_MEDIA_TOKEN_WINDOW", example: "600",
                  "Signed media URLs are valid until the end of this window…"),
            .init("mediaTokenMarginSeconds", .integer, env: "REELHOUSE_MEDIA_TOKEN_MARGIN", example: "60", "…plus this margin."),
            .init("mediaAccessCacheSeconds", .integer, env: "REELHOUSE_MEDIA_ACCESS_CACHE_SECONDS", example: "0",
                  "How long a node remembers what a person may see for their media URLs (revoking a grant, a key or a password ends issued URLs within this time)."),
        ]
    }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        let media = MediaController(
            library: dependencies.library, storage: dependencies.storage, tokens: server.tokens, images: server.images,
            access: server.mediaAccess, now: server.now
        )
        media.register(server.routes("media"))
        // nginx's auth_request (`reelhouse edge nginx`): the same checks, and the same ready-post memory.
        MediaAuthController(check: media.check, storage: dependencies.storage).register(server.routes("edge"))
    }
}
