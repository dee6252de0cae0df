import Crypto
import Foundation

/// The search cursor handed to clients: how many results came before the next page, signed
/// together with the query text the way `FeedCursorCodec` signs feed positions with their
/// filters, so a tampered cursor, or one from another query, is a 400 `invalid_cursor`.
struct SearchCursorCodec: Sendable {
    private let key: SymmetricKey

    init(secret: Data) {
        // Its own key: a feed cursor is never a valid search cursor, nor the reverse.
        key = SymmetricKey(data: SHA256.hash(data: Data("reelhouse search cursor".utf8) + secret))
    }

    func encode(offset: Int, query: String) -> String {
        let payload = Data(String(offset).utf8)
        return Base64URL.encode(payload) + "." + Base64URL.encode(mac(payload, query: query))
    }

    func decode(_ cursor: String, query: String) throws(APIError) -> Int {
        let parts = cursor.split(separator: ".")
        guard cursor.count <= 512, parts.count == 2,
              let payload = Base64URL.decode(parts[0]), let given = Base64URL.decode(parts[1])
        else { throw APIError.invalidCursor("the cursor is malformed") }
        guard MediaTokenSigner.constantTimeEqual(given, mac(payload, query: query)) else {
            throw APIError.invalidCursor("the cursor was altered or belongs to a different query")
        }
        guard let offset = Int(String(decoding: payload, as: UTF8.self)), offset >= 0 else {
            throw APIError.invalidCursor("the cursor is malformed")
        }
        return offset
    }

    private func mac(_ payload: Data, query: String) -> Data {
        var message = payload
        message.append(contentsOf: Data("|\(query)".utf8))
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key).prefix(16))
    }
}
