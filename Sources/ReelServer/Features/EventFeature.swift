/// Watch events (For You's signals) and what they make: history and hidden lists.
struct EventFeature: ServerFeature {
    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        EventsController(events: dependencies.events, limiter: server.limiter, retention: server.configuration.eventRetention, now: server.now)
            .register(server.routes("events"))
        HistoryController(
            events: dependencies.events, social: dependencies.social, presenter: server.presenter,
            cursors: ProfileListCursorCodec(secret: server.secret), now: server.now
        )
        .register(server.routes("me"))
    }
}
