import Foundation
import ReelForYou
import ReelModels
import ReelStore

/// Where a reader is in one of the feed's modes.
enum FeedCursorState: Equatable, Sendable {
    case shuffle(FeedPosition)
    case latest(LatestPosition)
    case forYou(ForYouPosition)

    var mode: FeedMode {
        switch self {
        case .shuffle: .shuffle
        case .latest: .latest
        case .forYou: .forYou
        }
    }
}

/// The feed cursor handed to clients: the store's position in its mode plus the filter it
/// belongs to, signed so a tampered or hand-made cursor is a 400 `invalid_cursor` instead of a
/// surprising page. The mode is in the signed payload (a shuffle cursor names none, so the
/// cursors of the shuffled feed read as they did before modes), so a cursor is bound to its
/// mode and filter.
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

    func encode(_ state: FeedCursorState, filter: FeedFilter) -> String {
        switch state {
        case .shuffle(let position): encode(position, filter: filter)
        case .latest(let position):
            signer.seal(Data("{\"mode\":\"latest\",\"addedAt\":\(position.addedAt),\"id\":\(position.id)}".utf8), context: Self.canonical(filter))
        case .forYou(let position):
            signer.seal(Data((
                "{\"mode\":\"for_you\",\"seed\":\(position.seed),\"page\":\(position.page)"
                    + (position.lastPostID.map { ",\"lastPostID\":\($0)" } ?? "") + "}"
            ).utf8), context: Self.canonical(filter))
        }
    }

    /// The position and mode of a cursor of any mode.
    func decodeState(_ cursor: String, filter: FeedFilter) throws(APIError) -> FeedCursorState {
        let payload = try signer.open(
            cursor, context: Self.canonical(filter), mismatch: "the cursor was altered or belongs to different filters"
        )
        struct Probe: Decodable { var mode: String? }
        let decoder = JSONDecoder()
        guard let probe = try? decoder.decode(Probe.self, from: payload) else { throw APIError.invalidCursor("the cursor is malformed") }
        let state: FeedCursorState?
        switch probe.mode {
        case nil: state = (try? decoder.decode(FeedPosition.self, from: payload)).map { .shuffle($0) }
        case FeedMode.latest.rawValue?: state = (try? decoder.decode(LatestPosition.self, from: payload)).map { .latest($0) }
        case FeedMode.forYou.rawValue?: state = (try? decoder.decode(ForYouPosition.self, from: payload)).map { .forYou($0) }
        default: state = nil
        }
        guard let state else { throw APIError.invalidCursor("the cursor is malformed") }
        return state
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
