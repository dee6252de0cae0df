/// Jobs: their state, retries, cancels and progress streams.
struct JobFeature: ServerFeature {
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
