/// Jobs: their state, retries, cancels and progress streams.
struct JobFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { JobSettings.self }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        let settings = server.configuration[JobSettings.self]
        JobController(
            jobs: dependencies.jobs, library: dependencies.library, grants: dependencies.libraries, generations: dependencies.generations?.store,
            uploads: dependencies.uploads?.storage, activity: dependencies.jobActivity, now: server.now,
            streams: EventStreamSlots(perUser: settings.eventStreamsPerUser, lifetime: .seconds(settings.eventStreamLifetimeSeconds))
        )
        .register(server.routes("jobs"))
    }
}

/// Server-sent event streams (job progress): how many one user may hold open at once, and how
/// long one lasts before the server ends it (the browser's EventSource reconnects by itself).
public struct JobSettings: FeatureSettings {
    public var eventStreamsPerUser = 4
    public var eventStreamLifetimeSeconds = 600

    public init() {}

    public static let declarations: [ConfigurationSetting] = [
        .init("eventStreamsPerUser", .integer, env: "REELHOUSE_EVENT_STREAMS_PER_USER", example: "2",
              "Job-progress event streams one user may hold open."),
        .init("eventStreamLifetimeSeconds", .integer, env: "REELHOUSE_EVENT_STREAM_LIFETIME", example: "60",
              "How long one event stream lasts (browsers reconnect)."),
    ]

    public func validate() throws(ConfigurationError) {
        guard eventStreamsPerUser >= 1, eventStreamLifetimeSeconds >= 1 else {
            throw ConfigurationError("eventStreamsPerUser and eventStreamLifetimeSeconds must be at least 1")
        }
    }
}
