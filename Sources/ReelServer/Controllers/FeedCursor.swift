import Crypto
import Foundation
import ReelModels
import ReelStore

/// The feed cursor handed to clients: the store's `FeedPosition` plus the filter it belongs
/// to, signed so a tampered or hand-made cursor is a 400 `invalid_cursor` instead of a surprising page.
struct FeedCursorCodec: Sendable {
    private let key: SymmetricKey

    init(secret: Data) {
        key = SymmetricKey(data: SHA256.hash(data: Data("reelhouse feed cursor".utf8) + secret))
    }

    func encode(_ position: FeedPosition, filter: FeedFilter) -> String {
        let payload = Data(Self.json(position).utf8)
        return Base64URL.encode(payload) + "." + Base64URL.encode(mac(payload, filter: filter))
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
        let parts = cursor.split(separator: ".")
        guard cursor.count <= 512, parts.count == 2,
              let payload = Base64URL.decode(parts[0]), let given = Base64URL.decode(parts[1])
        else { throw APIError.invalidCursor("the cursor is malformed") }
        guard MediaTokenSigner.constantTimeEqual(given, mac(payload, filter: filter)) else {
            throw APIError.invalidCursor("the cursor was altered or belongs to different filters")
        }
        guard let position = try? JSONDecoder().decode(FeedPosition.self, from: payload) else {
            throw APIError.invalidCursor("the cursor is malformed")
        }
        return position
    }

    private func mac(_ payload: Data, filter: FeedFilter) -> Data {
        var message = payload
        message.append(contentsOf: Data("|\(Self.canonical(filter))".utf8))
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key).prefix(16))
    }

    static func canonical(_ filter: FeedFilter) -> String {
        [
            filter.tags.map { $0.lowercased() }.sorted().joined(separator: ","),
            filter.excludeTags.map { $0.lowercased() }.sorted().joined(separator: ","),
            filter.kind?.rawValue ?? "",
            filter.favoritesOnly ? "1" : "0",
            filter.minRating.map(String.init) ?? "",
        ].joined(separator: ";")
    }
}
