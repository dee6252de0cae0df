import ReelForYou

/// The feed in its three modes (For You ranked above the store), and the benchmark baseline.
struct FeedFeature: ServerFeature {
    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        let tagShares = LibraryTagShares(social: dependencies.social, library: dependencies.library)
        let forYou = ForYouFeed(source: dependencies.forYou, feed: dependencies.feed, tagShares: { await tagShares.shares() })
        let feed = FeedController(
            feed: dependencies.feed, forYou: forYou, readiness: server.forYouReadiness, social: dependencies.social,
            presenter: server.presenter, cursors: FeedCursorCodec(secret: server.secret), now: server.now, encodedItems: server.encodedItems,
            orderByRandomBaseline: server.configuration[SystemSettings.self].benchmarkBaselines ? dependencies.orderByRandomBaseline : nil
        )
        feed.register(server.routes("feed"))
        feed.registerBaseline(server.routes("benchmark"))
    }
}
