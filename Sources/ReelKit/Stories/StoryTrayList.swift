import Foundation
import ReelModels

/// The tray as the app shows it: pages appended as it scrolls, a pull-to-refresh putting the
/// fresh first page in front, and never one person twice (the server groups people ignoring
/// case, so this does too).
public struct StoryTrayList: Sendable, Equatable {
    public private(set) var entries: [APIStoryTrayEntry] = []

    public init(entries: [APIStoryTrayEntry] = []) {
        self.entries = []
        _ = append(entries)
    }

    static func key(_ user: String) -> String { user.lowercased() }

    public func index(of user: String) -> Int? {
        let key = Self.key(user)
        return entries.firstIndex { Self.key($0.user) == key }
    }

    /// The next page: people not in the tray yet, in the server's order. Returns how many were new.
    @discardableResult
    public mutating func append(_ page: [APIStoryTrayEntry]) -> Int {
        var keys = Set(entries.map { Self.key($0.user) })
        let fresh = page.filter { keys.insert(Self.key($0.user)).inserted }
        entries += fresh
        return fresh.count
    }

    /// A pull-to-refresh: the fresh first page goes in front (new people, and people whose new
    /// item lit their ring again, move up with their fresh counts), everyone else keeps their
    /// place after it. Returns the people who were not in the tray before.
    @discardableResult
    public mutating func refresh(with firstPage: [APIStoryTrayEntry]) -> [String] {
        let before = Set(entries.map { Self.key($0.user) })
        var front = StoryTrayList()
        front.append(firstPage)
        let frontKeys = Set(front.entries.map { Self.key($0.user) })
        entries = front.entries + entries.filter { !frontKeys.contains(Self.key($0.user)) }
        return front.entries.map(\.user).filter { !before.contains(Self.key($0)) }
    }

    /// What the person's page says now (`itemsCount` live items, the first not yet seen at
    /// `firstUnseen`, `itemsCount` when all are): the ring turns grey as the viewer watches,
    /// without waiting for a refresh.
    public mutating func update(user: String, itemsCount: Int, firstUnseen: Int) {
        guard let index = index(of: user) else { return }
        let allSeen = firstUnseen >= itemsCount
        entries[index].itemsCount = itemsCount
        entries[index].firstUnseen = allSeen ? 0 : firstUnseen
        entries[index].allSeen = allSeen
    }

    /// A person with nothing live any more (their page answered 404).
    public mutating func remove(user: String) {
        guard let index = index(of: user) else { return }
        entries.remove(at: index)
    }
}
