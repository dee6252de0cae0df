/// One post: its detail, likes and saves, editing and removal.
struct VideoFeature: ServerFeature {
    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        VideoController(
            library: dependencies.library, grants: dependencies.libraries, collections: dependencies.collections, social: dependencies.social,
            storage: dependencies.storage, sources: dependencies.sources, presenter: server.presenter, now: server.now
        )
        .register(server.routes("videos"))
    }
}
