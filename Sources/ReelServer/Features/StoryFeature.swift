import ReelLibrary

/// Stories: the tray, a person's stories, seen and liked marks, posting and the archive.
struct StoryFeature: ServerFeature {
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
