import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ReelModels
import ReelStorage
import ReelStore

/// Seed 000's HLS routes, so its iOS client plays unmodified:
///
/// - `GET|HEAD /videos/{folder}/index.m3u8` (compat, no credentials): the master playlist. Its
///   rendition URIs are relative (`720p/index.m3u8`) and resolve under `/videos/{folder}/`.
/// - `GET|HEAD /videos/{folder}/{file+}` (compat): the post's HLS files only — rendition
///   playlists, init sections, segments (encrypted when the post is). The download MP4, the
///   poster and image files are *not* served here: these routes take no credentials, and those
///   files are not encrypted.
/// - `GET|HEAD /api/videos/{folder}/key` (user): the 16-byte AES-128 key, only with valid
///   credentials (the client's resource loader adds its `api-key` header) of a user granted the
///   post's library: anyone else gets the 404 of a post that does not exist.
///
/// Off by default (`compatRoutes`): the playlists and segments of every library are readable
/// by anyone who can guess a folder name (segments stay encrypted; the key is not).
///
/// Every playlist served here has its `#EXT-X-KEY` (and `#EXT-X-SESSION-KEY`) URI rewritten to
/// `<keyScheme>://<host[:port]>/api/videos/<folder>/key`: AVPlayer hands that custom scheme to
/// the client's resource loader, which swaps in its own base URL's scheme, host and port, keeps
/// the path, and adds the header.
///
/// Caching: these URLs name a post by its folder, which a later post may reuse after a delete,
/// so they are `public, max-age=3600` (not `immutable`), with a strong ETag for revalidation.
/// A playlist with a rewritten key line depends on the request's `Host`, so it is
/// `private, max-age=3600`: a shared cache (CDN, proxy) never stores it, while the player may.
/// `Vary: Host` was the alternative, but caches already key on the host and several CDNs treat
/// `Vary` on anything but encoding as uncacheable, so `private` states the intent plainly. The
/// ETag of a rewritten playlist includes the rewritten URI.
struct CompatMediaController {
    let library: any LibraryStore
    let grants: any LibraryGrantStore
    let storage: any MediaStorage
    let keyScheme: String
    let now: @Sendable () -> Date
    /// Ready posts by folder name for a few seconds (see `ReadyPostCache`).
    let posts = ReadyPostCache<String>()
    let responder = MediaFileResponder()

    static let publicCache = "public, max-age=3600"
    static let privateCache = "private, max-age=3600"
    /// Playlists are read whole to be rewritten; ours are a few KB.
    static let maxPlaylistBytes = 1 << 20

    func register(_ routes: APIRoutes) {
        for method in [HTTPRequest.Method.get, .head] {
            routes.on(method, "/videos/{folder}/index.m3u8", access: .compat, "Seed 000: a post's HLS master playlist") { request, context in
                try await master(request, context: context)
            }
            routes.on(method, "/videos/{folder}/{file+}", access: .compat, "Seed 000: a post's rendition playlist, init section or segment") { request, context in
                try await file(request, context: context)
            }
            routes.on(method, "/api/videos/{folder}/key", access: .user, "Seed 000: a post's AES-128 key") { request, context in
                try await key(request, context: context)
            }
        }
    }

    // MARK: - Handlers

    func master(_ request: Request, context: AppRequestContext) async throws -> Response {
        let folder = try Self.folder(context)
        guard let entry = try await readyPost(folder), let master = entry.media.masterPlaylist, entry.files.contains(master) else {
            throw APIError.notFound("video")
        }
        return try await servePlaylist(master, of: entry, request: request, context: context)
    }

    func file(_ request: Request, context: AppRequestContext) async throws -> Response {
        let folder = try Self.folder(context)
        guard let name = MediaName.catchAll(request, context: context), name.utf8.count <= MediaName.maxLength else {
            throw APIError.notFound("media")
        }
        guard let entry = try await readyPost(folder), Self.hlsFiles(entry.media).contains(name) else {
            throw APIError.notFound("media")
        }
        if MediaType.isPlaylist(name) {
            return try await servePlaylist(name, of: entry, request: request, context: context)
        }
        return try await MediaController.serve(
            name, post: entry.post, storage: storage, responder: responder, cacheControl: Self.publicCache, request: request, context: context
        )
    }

    func key(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let folder = try Self.folder(context)
        guard let entry = try await readyPost(folder), entry.media.encrypted,
              try await grants.scope(userID: user.id, requested: nil).contains(entry.post.libraryID),
              let key = try await library.encryptionKey(postID: entry.post.id)
        else { throw APIError.notFound("key") }
        return MediaFileResponder.key(key, request: request)
    }

    // MARK: - Playlists

    func servePlaylist(
        _ name: String, of entry: ReadyPostCache<String>.Entry, request: Request, context: AppRequestContext
    ) async throws -> Response {
        let data: Data?
        let validator: [String]
        switch try await MediaController.locate(name, postID: entry.post.id, storage: storage, logger: context.logger) {
        case .local(let url, let facts):
            data = facts.size <= Self.maxPlaylistBytes ? try await BlockingIO.run { try? Data(contentsOf: url) } : nil
            validator = ETag.parts(postID: entry.post.id, contentHash: entry.post.contentHash, name: name, facts: facts)
        case .stored(let info):
            data = info.size <= Self.maxPlaylistBytes
                ? try await storage.object(postKey: String(entry.post.id), relativePath: name, range: nil)?.bytes : nil
            validator = ETag.parts(postID: entry.post.id, contentHash: entry.post.contentHash, name: name, stored: info)
        }
        guard let data, let text = String(data: data, encoding: .utf8) else {
            context.logger.error("a listed playlist is too large or unreadable", metadata: ["post": "\(entry.post.id)", "file": "\(name)"])
            throw APIError.internalError
        }
        guard Self.isValidScheme(keyScheme), Self.isSlug(entry.post.folderName) else {
            context.logger.error("cannot write a key URI: the key scheme or the folder name is not URI-safe", metadata: ["post": "\(entry.post.id)"])
            throw APIError.internalError
        }
        let keyURI = "\(keyScheme)://\(try Self.host(request))/api/videos/\(entry.post.folderName)/key"
        let rewritten = HLSKeyRewriter.rewrite(text, keyURI: keyURI)
        let changed = rewritten != text
        let etag = ETag.strong(validator + (changed ? [keyURI] : []))
        return responder.bytes(
            Data(rewritten.utf8), contentType: MediaType.playlist, cacheControl: changed ? Self.privateCache : Self.publicCache,
            etag: etag, request: request
        )
    }

    // MARK: - Helpers

    func readyPost(_ folder: String) async throws -> ReadyPostCache<String>.Entry? {
        try await posts.entry(for: folder, now: now()) { try await library.post(folderName: folder) }
    }

    /// The files seed 000's player needs: playlists, init sections, segments and subtitles.
    static func hlsFiles(_ media: PublishedMedia) -> Set<String> {
        var files = Set<String>()
        if let master = media.masterPlaylist { files.insert(master) }
        for rendition in media.renditions {
            files.insert(rendition.playlist)
            files.insert(rendition.initSegment)
            files.formUnion(rendition.segments)
        }
        // The master names its subtitle renditions: AVPlayer fetches one when the viewer (or the
        // system's captions setting, AUTOSELECT=YES) picks it, so they must resolve here too.
        for track in media.subtitles ?? [] {
            files.insert(track.playlist)
            files.formUnion(track.segments)
        }
        return files
    }

    /// Folder names are slugs: `[a-z0-9-]{1,64}`, checked before any lookup.
    static func folder(_ context: AppRequestContext) throws(APIError) -> String {
        guard let folder = context.parameters.get("folder"), isSlug(folder) else { throw APIError.notFound("video") }
        return folder
    }

    static func isSlug(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") }
    }

    /// RFC 3986 scheme: a letter, then letters, digits, `+`, `-` or `.`.
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.utf8.first, (1...32).contains(scheme.utf8.count), isAlphanumeric(first), !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else {
            return false
        }
        return scheme.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// The authority the client used (the `Host` header when present, else the request's
    /// `:authority`, which is where NIO puts an HTTP/1 `Host`), checked to be a host name or
    /// address with an optional port before it is written into a playlist. Absent (HTTP/1.0)
    /// means `localhost`, harmless because the client replaces scheme, host and port anyway.
    static func host(_ request: Request) throws(APIError) -> String {
        guard let authority = request.headers[.host] ?? request.head.authority else { return "localhost" }
        guard isValidAuthority(authority) else { throw APIError.badRequest("the Host header is not a valid host name") }
        return authority.lowercased()
    }

    static func isValidAuthority(_ authority: String) -> Bool {
        let bytes = Array(authority.utf8)
        guard !bytes.isEmpty, bytes.count <= 261 else { return false }
        var hostPart = bytes[...]
        var portPart: ArraySlice<UInt8>?
        if bytes.first == UInt8(ascii: "[") {
            // IPv6 literal: [hex:hex…](:port)?
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let inner = bytes[1..<close]
            guard !inner.isEmpty, inner.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return false }
            let rest = bytes[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else { return false }
                portPart = rest.dropFirst()
            }
            hostPart = []
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            hostPart = bytes[..<colon]
            portPart = bytes[(colon + 1)...]
            guard !hostPart.isEmpty else { return false }
        }
        if !hostPart.isEmpty {
            guard hostPart.count <= 253, hostPart.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
                return false
            }
        }
        if let portPart {
            guard (1...5).contains(portPart.count), portPart.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let port = Int(String(decoding: portPart, as: UTF8.self)), port <= 65535
            else { return false }
        }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}

/// Rewrites the `URI` attribute of `#EXT-X-KEY` / `#EXT-X-SESSION-KEY` lines; every other
/// byte of the playlist (line endings included) is kept.
enum HLSKeyRewriter {
    static func rewrite(_ playlist: String, keyURI: String) -> String {
        // Unicode scalars, not Characters: "\r\n" is one Character and would hide the line break.
        let lines = playlist.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        var changed = false
        let output = lines.map { line -> String in
            for tag in ["#EXT-X-KEY:", "#EXT-X-SESSION-KEY:"] where line.hasPrefix(tag) {
                let trailingCR = line.unicodeScalars.last == "\r"
                let body = String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(tag.unicodeScalars.count).dropLast(trailingCR ? 1 : 0)))
                let replaced = replaceURI(in: body[...], with: keyURI)
                if replaced != body {
                    changed = true
                    return tag + replaced + (trailingCR ? "\r" : "")
                }
            }
            return line
        }
        return changed ? output.joined(separator: "\n") : playlist
    }

    /// Splits an attribute list on commas outside quotes and replaces the value of `URI`.
    static func replaceURI(in attributes: Substring, with uri: String) -> String {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in attributes {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        let mapped = parts.map { part -> String in
            guard let equals = part.firstIndex(of: "="), part[..<equals].trimmingCharacters(in: .whitespaces) == "URI" else { return part }
            return "URI=\"\(uri)\""
        }
        return mapped.joined(separator: ",")
    }
}

extension HTTPField.Name {
    fileprivate static let host = HTTPField.Name("Host")!
}
