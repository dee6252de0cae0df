import Foundation
import ReelModels

/// One logged interaction of an offline dataset: a person, an item, an optional explicit rating
/// and when it happened.
public struct LogEntry: Sendable, Equatable {
    public var userID: Int64
    public var itemID: Int64
    /// MovieLens: 1…5 stars; nil when the log has no ratings (then the entry is a plain watch).
    public var rating: Double?
    /// Seconds since 1970.
    public var timestamp: Double

    public init(userID: Int64, itemID: Int64, rating: Double? = nil, timestamp: Double) {
        self.userID = userID
        self.itemID = itemID
        self.rating = rating
        self.timestamp = timestamp
    }

    /// The entry as the person's watch events: a MovieLens rating means the person watched the
    /// film through (a long view) *and* rated it, so a 3★ film is a mild anchor, a 5★ one a
    /// strong one and a 1★ one none (1 + (r − 3)·0.75 with today's `SignalWeights`).
    public var events: [WatchEvent] {
        let at = Date(timeIntervalSince1970: timestamp)
        let film = 6_000_000 // 100 minutes, watched to the end
        var result = [WatchEvent(postID: itemID, type: .view, at: at, watchedMs: film, durationMs: film, loops: 0)]
        if let rating {
            let stars = min(5, max(1, Int(rating.rounded())))
            result.append(WatchEvent(postID: itemID, type: .rating, at: at, value: stars))
        }
        return result
    }
}

/// An interaction log with its catalogue (every item that occurs in it).
public struct InteractionLog: Sendable {
    public var entries: [LogEntry]

    public init(entries: [LogEntry]) {
        self.entries = entries
    }

    public var catalogueSize: Int { Set(entries.map(\.itemID)).count }
    public var userCount: Int { Set(entries.map(\.userID)).count }

    /// Reads a RecBole atomic `.inter` file (MovieLens-100k's `ml-100k.inter`): a tab-separated
    /// header of `name:type` fields, then one interaction per line. `user_id`, `item_id` and
    /// `timestamp` are required (ids must be integers); `rating` is optional.
    public static func readRecBole(path: String) throws(RankError) -> InteractionLog {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? error.localizedDescription : "no such file"
            throw .unreadableLog(path: path, reason: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadableLog(path: path, reason: "not UTF-8 text")
        }
        return try parseRecBole(text)
    }

    public static func parseRecBole(_ text: String) throws(RankError) -> InteractionLog {
        // "\r\n" is one Character in Swift, so lines are split on any newline, not on "\n".
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).makeIterator()
        guard let headerLine = lines.next(), !headerLine.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .malformedLog(line: 1, reason: "empty file: expected a header like user_id:token<TAB>item_id:token<TAB>rating:float<TAB>timestamp:float")
        }
        let header = fields(headerLine).map { $0.split(separator: ":").first.map(String.init) ?? "" }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let userColumn = column("user_id"), let itemColumn = column("item_id"), let timeColumn = column("timestamp") else {
            let missing = ["user_id", "item_id", "timestamp"].filter { column($0) == nil }
            throw .malformedLog(line: 1, reason: "the header has no \(missing.joined(separator: ", ")) field (found: \(header.joined(separator: ", ")))")
        }
        let ratingColumn = column("rating")

        var entries: [LogEntry] = []
        var lineNumber = 1
        while let line = lines.next() {
            lineNumber += 1
            if line.allSatisfy({ $0 == "\r" || $0 == " " }) { continue }
            let values = fields(line)
            guard values.count == header.count else {
                throw .malformedLog(line: lineNumber, reason: "\(values.count) fields where the header has \(header.count)")
            }
            guard let user = Int64(values[userColumn]) else {
                throw .malformedLog(line: lineNumber, reason: "user_id \"\(values[userColumn])\" is not an integer")
            }
            guard let item = Int64(values[itemColumn]) else {
                throw .malformedLog(line: lineNumber, reason: "item_id \"\(values[itemColumn])\" is not an integer")
            }
            guard let time = Double(values[timeColumn]), time.isFinite else {
                throw .malformedLog(line: lineNumber, reason: "timestamp \"\(values[timeColumn])\" is not a number")
            }
            var rating: Double?
            if let ratingColumn {
                guard let value = Double(values[ratingColumn]), value.isFinite else {
                    throw .malformedLog(line: lineNumber, reason: "rating \"\(values[ratingColumn])\" is not a number")
                }
                rating = value
            }
            entries.append(LogEntry(userID: user, itemID: item, rating: rating, timestamp: time))
        }
        guard !entries.isEmpty else { throw .unusableLog(reason: "the log has a header but no interactions") }
        return InteractionLog(entries: entries)
    }

    private static func fields(_ line: Substring) -> [String] {
        var trimmed = line
        if trimmed.hasSuffix("\r") { trimmed = trimmed.dropLast() }
        return trimmed.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
}
