import Foundation

public struct StorySegment: Sendable, Equatable, Identifiable {
    public var id: String
    /// Seconds the segment stays on screen (an image's fixed time or a clip's length).
    public var duration: TimeInterval

    public init(id: String, duration: TimeInterval) {
        self.id = id
        self.duration = max(0.1, duration)
    }
}

public struct StoryUser: Sendable, Equatable, Identifiable {
    public var id: String
    public var segments: [StorySegment]

    public init(id: String, segments: [StorySegment]) {
        self.id = id
        self.segments = segments
    }
}

/// Why progress is not moving. Several can hold at once; playback resumes when none does.
public enum StoryPauseReason: Sendable, Hashable {
    case longPress
    case buffering
    case background
}

public enum StoryEvent: Sendable, Equatable {
    case segmentStarted(user: String, segment: String)
    case userChanged(from: String, to: String)
    /// The last segment of the last user ended (or the user tapped past it).
    case finished
    case dismissed
}

/// The stories viewer as pure logic: a row of users, each with timed segments, progress that
/// runs on the clock it is given (`tick(at:)`), taps, long-press and buffering pauses, and
/// which segments have been seen. No timers inside: the UI calls `tick` from its display link,
/// tests call it with whatever times they like.
public struct StoryPlayer: Sendable {
    public private(set) var users: [StoryUser]
    public private(set) var userIndex = 0
    public private(set) var segmentIndex = 0
    /// Seconds shown of the current segment.
    public private(set) var elapsed: TimeInterval = 0
    public private(set) var pauseReasons: Set<StoryPauseReason> = []
    public private(set) var isFinished = false
    public private(set) var isDismissed = false
    public private(set) var seen: Set<String> = []
    /// Every segment opens paused for `.buffering` until the UI reports its first frame
    /// (`firstFrameShown`): a photo still decoding or a video not yet playing must not use up
    /// its time (Zuck.js #122).
    public let waitsForFirstFrame: Bool
    private var lastTick: Date?

    /// Starts at `userIndex`'s first unseen segment (its first one when all are seen).
    public init(
        users: [StoryUser], startingAt userIndex: Int = 0, alreadySeen: Set<String> = [], waitForFirstFrame: Bool = false, now: Date
    ) {
        self.users = users.filter { !$0.segments.isEmpty }
        seen = alreadySeen
        waitsForFirstFrame = waitForFirstFrame
        self.userIndex = min(max(0, userIndex), max(0, self.users.count - 1))
        isFinished = self.users.isEmpty
        if let user = currentUser { segmentIndex = user.segments.firstIndex { !alreadySeen.contains($0.id) } ?? 0 }
        lastTick = now
        markSeen()
        if waitForFirstFrame, currentSegment != nil { pauseReasons.insert(.buffering) }
    }

    public var currentUser: StoryUser? { users.indices.contains(userIndex) ? users[userIndex] : nil }
    public var currentSegment: StorySegment? { currentUser.flatMap { $0.segments.indices.contains(segmentIndex) ? $0.segments[segmentIndex] : nil } }
    public var isPlaying: Bool { pauseReasons.isEmpty && !isFinished && !isDismissed }
    /// 0…1 for the current segment's bar.
    public var progress: Double { currentSegment.map { min(1, elapsed / $0.duration) } ?? 0 }

    /// A user counts as seen when every one of their segments is.
    public func hasSeenAll(of userID: String) -> Bool {
        users.first { $0.id == userID }.map { $0.segments.allSatisfy { seen.contains($0.id) } } ?? false
    }

    /// Moves progress to `now`; advances over as many segments (and users) as the time covers.
    public mutating func tick(at now: Date) -> [StoryEvent] {
        defer { lastTick = now }
        guard isPlaying, let last = lastTick else { return [] }
        var remaining = max(0, now.timeIntervalSince(last))
        var events: [StoryEvent] = []
        while remaining > 0, isPlaying, let segment = currentSegment {
            let left = segment.duration - elapsed
            if remaining < left {
                elapsed += remaining
                remaining = 0
            } else {
                remaining -= left
                events += advance()
            }
        }
        return events
    }

    /// Right third of the screen: next segment, or the next user after the last one.
    public mutating func tapRight(at now: Date) -> [StoryEvent] {
        _ = tick(at: now)
        return advance()
    }

    /// Left third: back to the previous segment, or the previous user's last one.
    public mutating func tapLeft(at now: Date) -> [StoryEvent] {
        _ = tick(at: now)
        guard !isFinished, !isDismissed else { return [] }
        if segmentIndex > 0 { return show(user: userIndex, segment: segmentIndex - 1) }
        if userIndex > 0 { return show(user: userIndex - 1, segment: users[userIndex - 1].segments.count - 1) }
        elapsed = 0  // first segment of the first user: restart it
        return []
    }

    /// Swipe to the next user (first unseen segment of theirs, like Instagram).
    public mutating func nextUser(at now: Date) -> [StoryEvent] {
        _ = tick(at: now)
        guard !isFinished, !isDismissed else { return [] }
        guard userIndex + 1 < users.count else { return finish() }
        return show(user: userIndex + 1, segment: firstUnseen(in: userIndex + 1))
    }

    public mutating func previousUser(at now: Date) -> [StoryEvent] {
        _ = tick(at: now)
        guard !isFinished, !isDismissed, userIndex > 0 else { return [] }
        return show(user: userIndex - 1, segment: 0)
    }

    public mutating func pause(_ reason: StoryPauseReason, at now: Date) {
        _ = tick(at: now)
        pauseReasons.insert(reason)
    }

    public mutating func resume(_ reason: StoryPauseReason, at now: Date) {
        _ = tick(at: now)
        pauseReasons.remove(reason)
    }

    /// The UI shows `segment`'s first frame (photo decoded, video playing): its time starts.
    /// A late report for a segment that is no longer current changes nothing. Returns whether
    /// it applied.
    @discardableResult
    public mutating func firstFrameShown(segment: String, at now: Date) -> Bool {
        guard currentSegment?.id == segment else { return false }
        resume(.buffering, at: now)
        return true
    }

    /// Adds people after the last one (their items arrive as the viewer gets near them), with
    /// the segments the viewer saw before. People already in the row and people without
    /// segments are left out.
    public mutating func append(_ more: [StoryUser], alreadySeen: Set<String> = []) {
        let known = Set(users.map(\.id))
        users += more.filter { !$0.segments.isEmpty && !known.contains($0.id) }
        seen.formUnion(alreadySeen)
    }

    public mutating func dismiss(at now: Date) -> [StoryEvent] {
        _ = tick(at: now)
        guard !isDismissed else { return [] }
        isDismissed = true
        return [.dismissed]
    }

    // MARK: - Internals

    private mutating func advance() -> [StoryEvent] {
        guard !isFinished, !isDismissed, let user = currentUser else { return [] }
        if segmentIndex + 1 < user.segments.count { return show(user: userIndex, segment: segmentIndex + 1) }
        if userIndex + 1 < users.count { return show(user: userIndex + 1, segment: firstUnseen(in: userIndex + 1)) }
        return finish()
    }

    private mutating func finish() -> [StoryEvent] {
        elapsed = currentSegment?.duration ?? 0
        isFinished = true
        return [.finished]
    }

    private mutating func show(user: Int, segment: Int) -> [StoryEvent] {
        var events: [StoryEvent] = []
        if user != userIndex { events.append(.userChanged(from: users[userIndex].id, to: users[user].id)) }
        userIndex = user
        segmentIndex = segment
        elapsed = 0
        markSeen()
        if waitsForFirstFrame { pauseReasons.insert(.buffering) }
        if let current = currentSegment { events.append(.segmentStarted(user: users[user].id, segment: current.id)) }
        return events
    }

    private func firstUnseen(in user: Int) -> Int {
        users[user].segments.firstIndex { !seen.contains($0.id) } ?? 0
    }

    /// A segment counts as seen as soon as it is on screen (what Instagram reports).
    private mutating func markSeen() {
        if let segment = currentSegment { seen.insert(segment.id) }
    }
}
