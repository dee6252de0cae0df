/// Search over captions, tags and people, with recent searches.
struct SearchFeature: ServerFeature {
    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        SearchController(
            search: dependencies.search, social: dependencies.social, presenter: server.presenter,
            cursors: SearchCursorCodec(secret: server.secret), encodedItems: server.encodedItems, now: server.now
        )
        .register(server.routes("search"))
    }
}
