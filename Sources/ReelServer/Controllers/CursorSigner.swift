import Foundation

/// Seals a cursor's payload with an HMAC over the payload and the request it belongs to (the
/// feed's filters, a search's query), under a key of its own per kind of cursor, so a tampered
/// cursor, one from another request or one of another kind is a 400 `invalid_cursor`.
/// Wire form: base64url(payload) "." base64url(first 16 bytes of the HMAC).
struct CursorSigner: Sendable {
    private let keyed: KeyedMAC

    /// `purpose` names the kind of cursor ("reelhouse feed cursor"): a different key per kind.
    init(purpose: String, secret: Data) {
        keyed = KeyedMAC(purpose: purpose, secret: secret)
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

    /// The first 16 bytes of the MAC of the payload, `|` and the context.
    private func mac(_ payload: Data, context: String) -> [UInt8] {
        var message = [UInt8](payload)
        message.append(text: "|")
        message.append(text: context)
        return keyed.mac(message, prefix: 16)
    }
}
