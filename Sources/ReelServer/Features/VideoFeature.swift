/// One post: its detail, likes and saves, editing and removal.
struct VideoFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
            .init("resumeMinDuration", .number, env: "REELHOUSE_RESUME_MIN_DURATION", example: "120",
                  "Playback resumes (and Continue watching lists) only posts at least this many seconds long."),
            .init("resumeMinFraction", .number, env: "REELHOUSE_RESUME_MIN_FRACTION", example: "0.1",
                  "…whose saved position is at least this fraction of the post…"),
            .init("resumeMaxFraction", .number, env: "REELHOUSE_RESUME_MAX_FRACTION", example: "0.8",
                  "…and at most this fraction (past it, the post counts as finished)."),
        ]
    }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        VideoController(
            library: dependencies.library, grants: dependencies.libraries, collections: dependencies.collections, social: dependencies.social,
            storage: dependencies.storage, sources: dependencies.sources, presenter: server.presenter, now: server.now
        )
        .register(server.routes("videos"))
    }
}
