/// Signed media (playlists, segments, keys, images) and the edge's check of the same tokens.
struct MediaFeature: ServerFeature {
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
