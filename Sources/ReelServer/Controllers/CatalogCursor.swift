import Foundation
import Hummingbird
import ReelStore

/// The cursor of a catalog listing (browse, a shelf, a collection): the store's keyset
/// `CatalogPosition`, sealed together with the listing it belongs to (`listing`, e.g. the
/// browse query's canonical form or `shelf:new`), so a tampered cursor or one from another
/// listing is a 400 `invalid_cursor`.
struct CatalogCursorCodec: Sendable {
    // Its own key: a feed or search cursor is never a valid catalog cursor, nor the reverse.
    private let signer: CursorSigner

    init(secret: Data) {
        signer = CursorSigner(purpose: "reelhouse catalog cursor", secret: secret)
    }

    func encode(_ position: CatalogPosition, listing: String) throws -> String {
        signer.seal(try JSONEncoder().encode(position), context: listing)
    }

    func decode(_ cursor: String, listing: String) throws(APIError) -> CatalogPosition {
        let payload = try signer.open(cursor, context: listing, mismatch: "the cursor was altered or belongs to a different listing")
        guard let position = try? JSONDecoder().decode(CatalogPosition.self, from: payload) else {
            throw APIError.invalidCursor("the cursor is malformed")
        }
        return position
    }

    /// The position a request's `cursor` names, nil without one.
    func position(_ parameters: Parameters, listing: String) throws(APIError) -> CatalogPosition? {
        guard let text = parameters["cursor"], !text.isEmpty else { return nil }
        return try decode(String(text), listing: listing)
    }
}

/// Page sizes of the catalog listings (the contract: 24 by default, at most 60).
enum CatalogPaging {
    static let defaultLimit = 24
    static let maxLimit = 60
    /// Items per shelf inside `GET /api/v1/discover`.
    static let shelfPreview = 12

    static func limit(_ parameters: Parameters) throws(APIError) -> Int {
        try FeedController.limit(from: parameters, default: defaultLimit, maximum: maxLimit)
    }
}
