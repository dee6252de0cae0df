import Foundation

/// How long a story stays in the tray, for commands that file stories outside `serve`.
/// (`REELHOUSE_STORY_LIFETIME_HOURS`, default 24 h.)
enum StoryLifetime {
    static let defaultHours = 24.0

    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TimeInterval {
        guard let text = environment["REELHOUSE_STORY_LIFETIME_HOURS"] else { return defaultHours * 3600 }
        guard let hours = Double(text), hours.isFinite, hours > 0 else {
            throw CLIError("REELHOUSE_STORY_LIFETIME_HOURS must be a positive number of hours, not '\(text)'")
        }
        return hours * 3600
    }
}
