import Foundation

/// The search cursor handed to clients: how many results came before the next page, sealed
/// together with the query text, so a tampered cursor, or one from another query, is a 400
/// `invalid_cursor`.
struct SearchCursorCodec: Sendable {
    // Its own key: a feed cursor is never a valid search cursor, nor the reverse.
    private let signer: CursorSigner

    init(secret: Data) {
        signer = CursorSigner(purpose: "reelhouse search cursor", secret: secret)
    }

    func encode(offset: Int, query: String) -> String {
        signer.seal(Data(String(offset).utf8), context: query)
    }

    func decode(_ cursor: String, query: String) throws(APIError) -> Int {
        let payload = try signer.open(cursor, context: query, mismatch: "the cursor was altered or belongs to a different query")
        guard let offset = Int(String(decoding: payload, as: UTF8.self)), offset >= 0 else {
            throw APIError.invalidCursor("the cursor is malformed")
        }
        return offset
    }
}
