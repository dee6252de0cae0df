/// Jobs: their state, retries, cancels and progress streams.
struct JobFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
            .init("eventStreamsPerUser", .integer, env: "REELHOUSE_EVENT_STREAMS_PER_USER", example: "2",
                  "Job-progress event streams one user may hold open."),
            .init("eventStreamLifetimeSeconds", .integer, env: "REELHOUSE_EVENT_STREAM_LIFETIME", example: "60",
                  "How long one event stream lasts (browsers reconnect)."),
        ]
    }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        let configuration = server.configuration
        JobController(
            jobs: dependencies.jobs, library: dependencies.library, grants: dependencies.libraries, generations: dependencies.generations?.store,
            uploads: dependencies.uploads?.storage, activity: dependencies.jobActivity, now: server.now,
            streams: EventStreamSlots(perUser: configuration.eventStreamsPerUser, lifetime: .seconds(configuration.eventStreamLifetimeSeconds))
        )
        .register(server.routes("jobs"))
    }
}
