import Foundation

/// Watch events (For You's signals) and what they make: history and hidden lists.
struct EventFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { EventSettings.self }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        EventsController(
            events: dependencies.events, limiter: server.limiter, readiness: server.forYouReadiness,
            retention: server.configuration[EventSettings.self].eventRetention, now: server.now
        )
            .register(server.routes("events"))
        HistoryController(
            events: dependencies.events, social: dependencies.social, readiness: server.forYouReadiness, presenter: server.presenter,
            cursors: ProfileListCursorCodec(secret: server.secret), now: server.now
        )
        .register(server.routes("me"))
    }
}

/// For You's events: how long raw watch events are kept (`events.expire`; older ones are
/// refused at ingest too, while the aggregates they fed stay), and how often `recs.neighbors`
/// rebuilds the item-to-item neighbours from them.
public struct EventSettings: FeatureSettings {
    public var eventRetentionDays = 180
    public var neighborRefreshMinutes: Double = 10

    public init() {}

    public static let eventRetentionRange = 1...3650
    public var eventRetention: TimeInterval { TimeInterval(eventRetentionDays) * 86_400 }

    public static let declarations: [ConfigurationSetting] = [
        .init("eventRetentionDays", .integer, env: "REELHOUSE_EVENT_RETENTION_DAYS", example: "30",
              "Watch events are kept this many days (1 to 3650), then the hourly events.expire job deletes them; For You's aggregates stay."),
        .init("neighborRefreshMinutes", .number, env: "REELHOUSE_NEIGHBOR_REFRESH_MINUTES", example: "2",
              "How often the recs.neighbors job rebuilds For You's item-to-item neighbours (\"because you liked …\") from the watch events."),
    ]

    public func validate() throws(ConfigurationError) {
        guard Self.eventRetentionRange.contains(eventRetentionDays) else {
            throw ConfigurationError("eventRetentionDays must be between 1 and 3650")
        }
        try requirePositive(["neighborRefreshMinutes": neighborRefreshMinutes])
    }
}
