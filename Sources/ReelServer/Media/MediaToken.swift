import Crypto
import Foundation
import ReelCache

/// Whom a media URL is issued to: the person, the API key they used (nil for a browser
/// session) and a fingerprint of everything that decides what they may see (`MediaAccess`).
/// A URL keeps working only while all three still hold, so revoking a grant, a key or a
/// password ends it within `MediaAccess`'s memory, not at the token's expiry.
public struct MediaViewer: Sendable, Hashable {
    public let userID: Int64
    public let keyID: Int64?
    public let fingerprint: UInt32

    public init(userID: Int64, keyID: Int64?, fingerprint: UInt32) {
        self.userID = userID
        self.keyID = keyID
        self.fingerprint = fingerprint
    }
}

/// A stateless capability for one post's media, carried in the URL path:
/// `/media/{token}/{post id}/master.m3u8`. Relative URIs inside the playlists inherit it, so
/// AVPlayer, Safari, our web player, nginx `secure_link` or a CDN need no custom header.
///
/// token = base64url(expiry as 8-byte big-endian ‖ viewer ‖ first 16 bytes of
///         HMAC-SHA256(secret, "media|v2|" + post id + "|" + expiry + "|" + viewer text)),
/// where viewer is `u{user id}` or `u{user id}k{key id}` followed by the 4-byte access
/// fingerprint, or nothing at all for a shared token (which names no one and so can only
/// expire; the API issues none). Any node with the secret verifies the signature; whether the
/// viewer may still see the post is `MediaAccess`'s question.
public struct MediaTokenSigner: Sendable {
    public enum Failure: Error, Equatable {
        case malformed
        case badSignature
        case expired
    }

    private let keyed: KeyedMAC
    public let window: Int64
    public let margin: Int64
    /// Tokens are the same for every request in a window: computed once per post and viewer.
    private let memo = BoundedCache<TokenParts, String, NoRevision>(capacity: 16_384)

    private struct TokenParts: Hashable, Sendable {
        let postID: Int64
        let expiry: Int64
        let viewer: MediaViewer?
    }

    /// Longest token payload: expiry, the longest viewer text (`u` and `k` with two 19-digit
    /// ids), its fingerprint, the MAC.
    static let maxBytes = 8 + 42 + 4 + 16
    /// Longest token `check` reads: `maxBytes` in unpadded base64url (94 characters).
    static let maxLength = (maxBytes * 4 + 2) / 3

    public init(secret: Data, windowSeconds: Int, marginSeconds: Int) {
        self.keyed = KeyedMAC(purpose: "reelhouse media token", secret: secret)
        self.window = Int64(max(2, windowSeconds))
        self.margin = Int64(max(0, marginSeconds))
    }

    /// Expiry at the end of the current window plus the margin: identical for every request in
    /// one window, so URLs (and therefore caches) are shared.
    public func expiry(now: Date) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return (seconds / window + 1) * window + margin
    }

    public func token(postID: Int64, viewer: MediaViewer? = nil, now: Date) -> String {
        token(postID: postID, viewer: viewer, expiry: expiry(now: now))
    }

    public func token(postID: Int64, viewer: MediaViewer?, expiry: Int64) -> String {
        let parts = TokenParts(postID: postID, expiry: expiry, viewer: viewer)
        return memo.value(for: parts) { makeToken(parts) }
    }

    private func makeToken(_ parts: TokenParts) -> String {
        var payload: [UInt8] = []
        payload.reserveCapacity(Self.maxBytes)
        payload.append(bigEndian: parts.expiry)
        if let viewer = parts.viewer {
            Self.appendViewerText(viewer, to: &payload)
            payload.append(bigEndian: viewer.fingerprint)
        }
        payload += mac(postID: parts.postID, viewer: parts.viewer, expiry: parts.expiry)
        return Base64URL.encode(payload)
    }

    /// `u{user id}` or `u{user id}k{key id}`.
    private static func appendViewerText(_ viewer: MediaViewer, to bytes: inout [UInt8]) {
        bytes.append(text: "u")
        bytes.append(decimal: viewer.userID)
        if let keyID = viewer.keyID {
            bytes.append(text: "k")
            bytes.append(decimal: keyID)
        }
    }

    /// What a genuine, unexpired token says: whom it was issued to (nil: shared) and until when
    /// it works.
    public struct Verified: Sendable, Equatable {
        public let viewer: MediaViewer?
        /// Seconds since 1970; the token is accepted up to and including this second.
        public let expiry: Int64
    }

    /// Checks the token against the post it is used for. A token for another post fails the
    /// signature check (403), exactly like a forged one; a genuine but old one is `expired` (410).
    public func check(_ token: String, postID: Int64, now: Date) -> Result<Verified, Failure> {
        guard token.count <= Self.maxLength, let raw = Base64URL.decode(token), raw.count >= 8 + 16 else { return .failure(.malformed) }
        let bytes = [UInt8](raw)
        let expiry = Int64(bitPattern: bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        var viewer: MediaViewer?
        if bytes.count > 8 + 16 {
            guard bytes.count > 8 + 4 + 16, let parsed = Self.viewer(text: bytes[8..<(bytes.count - 20)], fingerprint: bytes[(bytes.count - 20)..<(bytes.count - 16)]) else {
                return .failure(.malformed)
            }
            viewer = parsed
        }
        let expected = mac(postID: postID, viewer: viewer, expiry: expiry)
        guard KeyedMAC.constantTimeEqual(bytes.suffix(16), expected) else { return .failure(.badSignature) }
        guard Int64(now.timeIntervalSince1970) <= expiry else { return .failure(.expired) }
        return .success(Verified(viewer: viewer, expiry: expiry))
    }

    /// `u{user}` or `u{user}k{key}`, then the fingerprint's 4 bytes.
    private static func viewer(text: ArraySlice<UInt8>, fingerprint: ArraySlice<UInt8>) -> MediaViewer? {
        guard text.first == UInt8(ascii: "u") else { return nil }
        let parts = String(decoding: text.dropFirst(), as: UTF8.self).split(separator: "k", maxSplits: 1, omittingEmptySubsequences: false)
        guard let user = parts.first.flatMap({ Int64($0) }), user > 0 else { return nil }
        var keyID: Int64?
        if parts.count == 2 {
            guard let key = Int64(parts[1]), key > 0 else { return nil }
            keyID = key
        }
        let print = fingerprint.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return MediaViewer(userID: user, keyID: keyID, fingerprint: print)
    }

    /// The first 16 bytes of the MAC of `media|v2|{post}|{expiry}|{viewer text}|{fingerprint}`,
    /// or `…|{expiry}|-` for a shared token.
    private func mac(postID: Int64, viewer: MediaViewer?, expiry: Int64) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(96)
        message.append(text: "media|v2|")
        message.append(decimal: postID)
        message.append(text: "|")
        message.append(decimal: expiry)
        message.append(text: "|")
        if let viewer {
            Self.appendViewerText(viewer, to: &message)
            message.append(text: "|")
            message.append(decimal: viewer.fingerprint)
        } else {
            message.append(text: "-")
        }
        return keyed.mac(message, prefix: 16)
    }
}

/// Permanent, unforgeable URLs for still images: the path names the post and the image's
/// content hash, signed without expiry. A changed image has a new hash and so a new URL, which
/// is why these can be cached forever (`immutable`).
///
/// Not memoized: signing one is about as cheap as looking it up in a cache keyed by the hash
/// (a feed item's image is part of its encoded template, which is cached), and on 1M posts a
/// memo only ever missed, paying its inserts and evictions on top (3 % of the feed's time).
public struct ImageURLSigner: Sendable {
    private let keyed: KeyedMAC

    public init(secret: Data) {
        self.keyed = KeyedMAC(purpose: "reelhouse image url", secret: secret)
    }

    public func signature(postID: Int64, contentHash: String) -> String {
        Base64URL.encode(mac(postID: postID, contentHash: contentHash))
    }

    /// The first 12 bytes of the MAC of `image|v1|{post}|{content hash}`.
    private func mac(postID: Int64, contentHash: String) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(16 + 20 + contentHash.utf8.count)
        message.append(text: "image|v1|")
        message.append(decimal: postID)
        message.append(text: "|")
        message.append(text: contentHash)
        return keyed.mac(message, prefix: 12)
    }

    public func verify(_ signature: String, postID: Int64, contentHash: String) -> Bool {
        guard let given = Base64URL.decode(signature) else { return false }
        return KeyedMAC.constantTimeEqual(given, mac(postID: postID, contentHash: contentHash))
    }
}
