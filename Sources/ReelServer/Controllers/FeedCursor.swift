import Foundation
import ReelModels
import ReelStore

/// The feed cursor handed to clients: the store's `FeedPosition` plus the filter it belongs
/// to, signed so a tampered or hand-made cursor is a 400 `invalid_cursor` instead of a surprising page.
struct FeedCursorCodec: Sendable {
    private let signer: CursorSigner

    init(secret: Data) {
        signer = CursorSigner(purpose: "reelhouse feed cursor", secret: secret)
    }

    func encode(_ position: FeedPosition, filter: FeedFilter) -> String {
        signer.seal(Data(Self.json(position).utf8), context: Self.canonical(filter))
    }

    /// The position as the JSON its `Codable` conformance reads (numbers only, so nothing to
    /// escape), written directly: every feed page signs one, and a `JSONEncoder` per page was a
    /// measurable share of the feed's cost.
    static func json(_ position: FeedPosition) -> String {
        var text = "{\"seed\":\(position.seed),\"epoch\":\(position.epoch),\"phase\":\(position.phase)"
        if let lastKey = position.lastKey { text += ",\"lastKey\":\(lastKey)" }
        if let lastID = position.lastID { text += ",\"lastID\":\(lastID)" }
        return text + "}"
    }

    func decode(_ cursor: String, filter: FeedFilter) throws(APIError) -> FeedPosition {
        let payload = try signer.open(
            cursor, context: Self.canonical(filter), mismatch: "the cursor was altered or belongs to different filters"
        )
        guard let position = try? JSONDecoder().decode(FeedPosition.self, from: payload) else {
            throw APIError.invalidCursor("the cursor is malformed")
        }
        return position
    }

    static func canonical(_ filter: FeedFilter) -> String {
        [
            filter.tags.map { $0.lowercased() }.sorted().joined(separator: ","),
            filter.excludeTags.map { $0.lowercased() }.sorted().joined(separator: ","),
            filter.kind?.rawValue ?? "",
            filter.favoritesOnly ? "1" : "0",
            filter.minRating.map(String.init) ?? "",
        ].joined(separator: ";")
            // Only when set, so the cursors of unscoped feeds read as they did before libraries.
            + (filter.library.map { ";library=\($0)" } ?? "")
    }
}
