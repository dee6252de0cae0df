import Foundation
import ReelLibrary

/// Stories: the tray, a person's stories, seen and liked marks, posting and the archive.
struct StoryFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { StorySettings.self }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        StoriesController(
            stories: dependencies.stories,
            removal: PostRemoval(library: dependencies.library, storage: dependencies.storage, sources: dependencies.sources),
            presenter: StoryPresenter(videos: server.presenter, photoSeconds: server.configuration[StorySettings.self].storyPhotoSeconds),
            cursors: StoryCursorCodec(secret: server.secret), now: server.now
        )
        .register(server.routes("stories"))
    }
}

/// Stories: how long one stays in the tray, how long a photo shows, and whether the owner keeps
/// an archive of their expired stories (else the expiry sweep deletes them).
public struct StorySettings: FeatureSettings {
    public var storyLifetimeHours: Double = 24
    public var storyPhotoSeconds: Double = 5
    public var storyArchive = true

    public init() {}

    /// A story's lifetime in seconds.
    public var storyLifetime: TimeInterval { storyLifetimeHours * 3600 }

    public static let declarations: [ConfigurationSetting] = [
        .init("storyLifetimeHours", .number, env: "REELHOUSE_STORY_LIFETIME_HOURS", example: "12",
              "A story leaves the tray this many hours after it was posted."),
        .init("storyPhotoSeconds", .number, env: "REELHOUSE_STORY_PHOTO_SECONDS", example: "7.5",
              "How long a photo story stays on screen."),
        .init("storyArchive", .boolean, env: "REELHOUSE_STORY_ARCHIVE", example: "false",
              "Keep a person's expired stories in their archive (off: the next sweep deletes expired stories with their media, archives included)."),
    ]

    public func validate() throws(ConfigurationError) {
        try requirePositive(["storyLifetimeHours": storyLifetimeHours, "storyPhotoSeconds": storyPhotoSeconds])
    }
}
