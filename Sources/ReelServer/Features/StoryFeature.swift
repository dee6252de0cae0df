import ReelLibrary

/// Stories: the tray, a person's stories, seen and liked marks, posting and the archive.
struct StoryFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
            .init("storyLifetimeHours", .number, env: "REELHOUSE_STORY_LIFETIME_HOURS", example: "12",
                  "A story leaves the tray this many hours after it was posted."),
            .init("storyPhotoSeconds", .number, env: "REELHOUSE_STORY_PHOTO_SECONDS", example: "7.5",
                  "How long a photo story stays on screen."),
            .init("storyArchive", .boolean, env: "REELHOUSE_STORY_ARCHIVE", example: "false",
                  "Keep a person's expired stories in their archive (off: the next sweep deletes expired stories with their media, archives included)."),
        ]
    }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        StoriesController(
            stories: dependencies.stories,
            removal: PostRemoval(library: dependencies.library, storage: dependencies.storage, sources: dependencies.sources),
            presenter: StoryPresenter(videos: server.presenter, photoSeconds: server.configuration.storyPhotoSeconds),
            cursors: StoryCursorCodec(secret: server.secret), now: server.now
        )
        .register(server.routes("stories"))
    }
}
