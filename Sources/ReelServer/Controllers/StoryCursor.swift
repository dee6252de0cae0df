import Foundation
import ReelStore

/// The stories' cursors (tray, an item's viewers, the archive): the store's keyset position as
/// JSON, sealed with the listing it belongs to, so a tampered cursor, or one of another listing
/// (another item's viewers, say), is a 400 `invalid_cursor`.
struct StoryCursorCodec: Sendable {
    // Its own key: no feed, search or catalog cursor is ever a valid story cursor.
    private let signer: CursorSigner

    init(secret: Data) {
        signer = CursorSigner(purpose: "reelhouse story cursor", secret: secret)
    }

    /// What a cursor was issued for: its listing and, for viewers, the item.
    enum Listing {
        case tray
        case viewers(postID: Int64)
        case archive(userID: Int64)

        var context: String {
            switch self {
            case .tray: "tray"
            case .viewers(let postID): "viewers/\(postID)"
            case .archive(let userID): "archive/\(userID)"
            }
        }
    }

    func encode<Position: Encodable>(_ position: Position, for listing: Listing) -> String {
        // Cursors are flat structs of numbers and a name: encoding cannot fail.
        let payload = (try? JSONEncoder().encode(position)) ?? Data()
        return signer.seal(payload, context: listing.context)
    }

    /// Nil for an absent or empty cursor (the first page).
    func decode<Position: Decodable>(_ text: String?, as type: Position.Type, for listing: Listing) throws(APIError) -> Position? {
        guard let text, !text.isEmpty else { return nil }
        let payload = try signer.open(text, context: listing.context, mismatch: "the cursor was altered or belongs to another listing")
        guard let position = try? JSONDecoder().decode(type, from: payload) else { throw APIError.invalidCursor("the cursor is malformed") }
        return position
    }
}
