/// Watch events (For You's signals) and what they make: history and hidden lists.
struct EventFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
            .init("eventRetentionDays", .integer, env: "REELHOUSE_EVENT_RETENTION_DAYS", example: "30",
                  "Watch events are kept this many days (1 to 3650), then the hourly events.expire job deletes them; For You's aggregates stay."),
            .init("neighborRefreshMinutes", .number, env: "REELHOUSE_NEIGHBOR_REFRESH_MINUTES", example: "2",
                  "How often the recs.neighbors job rebuilds For You's item-to-item neighbours (\"because you liked …\") from the watch events."),
        ]
    }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        EventsController(
            events: dependencies.events, limiter: server.limiter, readiness: server.forYouReadiness,
            retention: server.configuration.eventRetention, now: server.now
        )
            .register(server.routes("events"))
        HistoryController(
            events: dependencies.events, social: dependencies.social, readiness: server.forYouReadiness, presenter: server.presenter,
            cursors: ProfileListCursorCodec(secret: server.secret), now: server.now
        )
        .register(server.routes("me"))
    }
}
