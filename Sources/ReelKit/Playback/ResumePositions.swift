import Foundation

/// Where the user stopped each video, so it starts there next time (seed 002). Reaching the
/// end resets it; so does stopping within the first few seconds, which is a peek, not a
/// watch. Kept in one small JSON file.
public actor ResumePositions {
    let fileSystem: any CacheFileSystem
    let path: String
    /// Closer than this to the end counts as finished.
    public nonisolated let endMargin: TimeInterval
    /// Positions before this are not worth resuming.
    public nonisolated let minimumPosition: TimeInterval
    private var positions: [String: Double]?

    public init(fileSystem: any CacheFileSystem, path: String = "resume-positions.json", endMargin: TimeInterval = 2, minimumPosition: TimeInterval = 3) {
        self.fileSystem = fileSystem
        self.path = path
        self.endMargin = endMargin
        self.minimumPosition = minimumPosition
    }

    /// Records where playback is; a position at (or near) the end, or too close to the start,
    /// removes the entry. Returns the stored position (nil when reset).
    @discardableResult
    public func record(_ seconds: TimeInterval, duration: TimeInterval?, for id: Int64) -> TimeInterval? {
        var all = loaded()
        let finished = duration.map { seconds >= $0 - endMargin } ?? false
        let stored: Double? = (finished || seconds < minimumPosition || !seconds.isFinite) ? nil : seconds
        all[String(id)] = stored
        save(all)
        return stored
    }

    public func position(for id: Int64) -> TimeInterval? {
        loaded()[String(id)]
    }

    /// Playback reached the end: next time starts from zero.
    public func finished(_ id: Int64) {
        var all = loaded()
        guard all.removeValue(forKey: String(id)) != nil else { return }
        save(all)
    }

    private func loaded() -> [String: Double] {
        if let positions { return positions }
        let decoded = (try? fileSystem.read(path)).flatMap { $0 }.flatMap { try? JSONDecoder().decode([String: Double].self, from: $0) } ?? [:]
        positions = decoded
        return decoded
    }

    /// Best effort: losing a resume point is not worth an error in the UI.
    private func save(_ all: [String: Double]) {
        positions = all
        if let data = try? JSONEncoder().encode(all) { try? fileSystem.write(data, to: path) }
    }
}
