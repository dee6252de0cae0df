import Crypto
import Foundation

/// Seals a cursor's payload with an HMAC over the payload and the request it belongs to (the
/// feed's filters, a search's query), under a key of its own per kind of cursor, so a tampered
/// cursor, one from another request or one of another kind is a 400 `invalid_cursor`.
/// Wire form: base64url(payload) "." base64url(first 16 bytes of the HMAC).
struct CursorSigner: Sendable {
    private let key: SymmetricKey

    /// `purpose` names the kind of cursor ("reelhouse feed cursor"): a different key per kind.
    init(purpose: String, secret: Data) {
        key = SymmetricKey(data: SHA256.hash(data: Data(purpose.utf8) + secret))
    }

    func seal(_ payload: Data, context: String) -> String {
        Base64URL.encode(payload) + "." + Base64URL.encode(mac(payload, context: context))
    }

    /// The payload of a cursor sealed with `context`; `mismatch` says what a wrong MAC means.
    func open(_ cursor: String, context: String, mismatch: String) throws(APIError) -> Data {
        let parts = cursor.split(separator: ".")
        guard cursor.count <= 512, parts.count == 2,
              let payload = Base64URL.decode(parts[0]), let given = Base64URL.decode(parts[1])
        else { throw APIError.invalidCursor("the cursor is malformed") }
        guard KeyedMAC.constantTimeEqual(given, mac(payload, context: context)) else {
            throw APIError.invalidCursor(mismatch)
        }
        return payload
    }

    private func mac(_ payload: Data, context: String) -> Data {
        var message = payload
        message.append(contentsOf: Data("|\(context)".utf8))
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key).prefix(16))
    }
}
