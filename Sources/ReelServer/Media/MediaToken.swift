import Crypto
import Foundation

/// A stateless capability for one post's media, carried in the URL path:
/// `/media/{token}/{post id}/master.m3u8`. Relative URIs inside the playlists inherit it, so
/// AVPlayer, Safari, our web player, nginx `secure_link` or a CDN need no custom header.
///
/// token = base64url(expiry as 8-byte big-endian ‖ first 16 bytes of
///         HMAC-SHA256(secret, "media|v1|" + post id + "|" + expiry + "|" + user id or "-")).
/// Any node with the secret verifies it; nothing is stored. The user id is optional so that a
/// deployment can choose per-user URLs (auditable) or shared ones (better cache hit rates).
public struct MediaTokenSigner: Sendable {
    public enum Failure: Error, Equatable {
        case malformed
        case badSignature
        case expired
    }

    private let key: SymmetricKey
    public let window: Int64
    public let margin: Int64
    /// Shared tokens (no user) are the same for every request in a window: computed once.
    private let shared = SignatureMemo<SharedToken>()

    private struct SharedToken: Hashable, Sendable {
        let postID: Int64
        let expiry: Int64
    }

    public init(secret: Data, windowSeconds: Int, marginSeconds: Int) {
        self.key = SymmetricKey(data: SHA256.hash(data: Data("reelhouse media token".utf8) + secret))
        self.window = Int64(max(2, windowSeconds))
        self.margin = Int64(max(0, marginSeconds))
    }

    /// Expiry at the end of the current window plus the margin: identical for every request in
    /// one window, so URLs (and therefore caches) are shared.
    public func expiry(now: Date) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return (seconds / window + 1) * window + margin
    }

    public func token(postID: Int64, userID: Int64? = nil, now: Date) -> String {
        token(postID: postID, userID: userID, expiry: expiry(now: now))
    }

    public func token(postID: Int64, userID: Int64?, expiry: Int64) -> String {
        guard userID == nil else { return makeToken(postID: postID, userID: userID, expiry: expiry) }
        return shared.value(for: SharedToken(postID: postID, expiry: expiry)) {
            makeToken(postID: postID, userID: nil, expiry: expiry)
        }
    }

    private func makeToken(postID: Int64, userID: Int64?, expiry: Int64) -> String {
        var payload = Data(count: 8)
        for index in 0..<8 { payload[index] = UInt8(truncatingIfNeeded: UInt64(bitPattern: expiry) >> (56 - 8 * UInt64(index))) }
        if let userID { payload.append(contentsOf: Data("u\(userID)".utf8)) }
        return Base64URL.encode(payload + mac(postID: postID, userID: userID, expiry: expiry))
    }

    /// What a genuine, unexpired token says: whose it is (nil: shared) and until when it works.
    public struct Verified: Sendable, Equatable {
        public let userID: Int64?
        /// Seconds since 1970; the token is accepted up to and including this second.
        public let expiry: Int64
    }

    /// Checks the token against the post it is used for. A token for another post fails the
    /// signature check (403), exactly like a forged one; a genuine but old one is `expired` (410).
    public func verify(_ token: String, postID: Int64, now: Date) -> Result<Int64?, Failure> {
        check(token, postID: postID, now: now).map(\.userID)
    }

    /// `verify`, keeping the expiry too: the edge caches a token's answer for its remaining life.
    public func check(_ token: String, postID: Int64, now: Date) -> Result<Verified, Failure> {
        guard token.count <= 80, let raw = Base64URL.decode(token), raw.count >= 8 + 16 else { return .failure(.malformed) }
        let bytes = [UInt8](raw)
        let expiry = Int64(bitPattern: bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        let userPart = bytes[8..<(bytes.count - 16)]
        var userID: Int64?
        if !userPart.isEmpty {
            guard userPart.first == UInt8(ascii: "u"), let id = Int64(String(decoding: userPart.dropFirst(), as: UTF8.self)) else {
                return .failure(.malformed)
            }
            userID = id
        }
        let expected = mac(postID: postID, userID: userID, expiry: expiry)
        guard Self.constantTimeEqual(Data(bytes.suffix(16)), expected) else { return .failure(.badSignature) }
        guard Int64(now.timeIntervalSince1970) <= expiry else { return .failure(.expired) }
        return .success(Verified(userID: userID, expiry: expiry))
    }

    private func mac(postID: Int64, userID: Int64?, expiry: Int64) -> Data {
        let message = "media|v1|\(postID)|\(expiry)|\(userID.map(String.init) ?? "-")"
        return Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key).prefix(16))
    }

    static func constantTimeEqual(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Permanent, unforgeable URLs for still images: the path names the post and the image's
/// content hash, signed without expiry. A changed image has a new hash and so a new URL, which
/// is why these can be cached forever (`immutable`).
public struct ImageURLSigner: Sendable {
    private let key: SymmetricKey
    /// An image's signature never changes: computed once per image, not once per feed page.
    private let memo = SignatureMemo<String>()

    public init(secret: Data) {
        self.key = SymmetricKey(data: SHA256.hash(data: Data("reelhouse image url".utf8) + secret))
    }

    public func signature(postID: Int64, contentHash: String) -> String {
        memo.value(for: "\(postID)|\(contentHash)") { makeSignature(postID: postID, contentHash: contentHash) }
    }

    private func makeSignature(postID: Int64, contentHash: String) -> String {
        let message = "image|v1|\(postID)|\(contentHash)"
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key).prefix(12)))
    }

    public func verify(_ signature: String, postID: Int64, contentHash: String) -> Bool {
        guard let given = Base64URL.decode(signature), let expected = Base64URL.decode(makeSignature(postID: postID, contentHash: contentHash)) else {
            return false
        }
        return MediaTokenSigner.constantTimeEqual(given, expected)
    }
}

/// Remembers signatures the feed would otherwise recompute for every page (an HMAC per URL was
/// a tenth of a feed request's time in a profile). Bounded; when full it starts over, which
/// keeps the hot set without bookkeeping per hit. Verification never reads it.
final class SignatureMemo<Key: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Key: String] = [:]
    private let capacity: Int

    init(capacity: Int = 16_384) {
        self.capacity = capacity
    }

    func value(for key: Key, make: () -> String) -> String {
        if let hit = lock.withLock({ entries[key] }) { return hit }
        let value = make()
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }
}
