import Foundation
import ReelStore

/// One post: its detail, likes and saves, editing and removal.
struct VideoFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { VideoSettings.self }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        VideoController(
            library: dependencies.library, grants: dependencies.libraries, collections: dependencies.collections, social: dependencies.social,
            storage: dependencies.storage, sources: dependencies.sources, presenter: server.presenter, now: server.now
        )
        .register(server.routes("videos"))
    }
}

/// The resume rule (`ResumeRule`): positions are resumed, and listed under Continue watching,
/// for posts of at least `resumeMinDuration` seconds, between the two fractions.
public struct VideoSettings: FeatureSettings {
    public var resumeMinDuration = ResumeRule().minDuration
    public var resumeMinFraction = ResumeRule().minFraction
    public var resumeMaxFraction = ResumeRule().maxFraction

    public init() {}

    public var resumeRule: ResumeRule {
        ResumeRule(minDuration: resumeMinDuration, minFraction: resumeMinFraction, maxFraction: resumeMaxFraction)
    }

    public static let declarations: [ConfigurationSetting] = [
        .init("resumeMinDuration", .number, env: "REELHOUSE_RESUME_MIN_DURATION", example: "120",
              "Playback resumes (and Continue watching lists) only posts at least this many seconds long."),
        .init("resumeMinFraction", .number, env: "REELHOUSE_RESUME_MIN_FRACTION", example: "0.1",
              "…whose saved position is at least this fraction of the post…"),
        .init("resumeMaxFraction", .number, env: "REELHOUSE_RESUME_MAX_FRACTION", example: "0.8",
              "…and at most this fraction (past it, the post counts as finished)."),
    ]

    public func validate() throws(ConfigurationError) {
        guard resumeMinDuration >= 0, 0...1 ~= resumeMinFraction, 0...1 ~= resumeMaxFraction, resumeMinFraction <= resumeMaxFraction else {
            throw ConfigurationError("resumeMinDuration must not be negative, and 0 ≤ resumeMinFraction ≤ resumeMaxFraction ≤ 1")
        }
    }
}
