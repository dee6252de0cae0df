import Foundation
import Logging
import ReelCache
import ReelStorage

/// Published media in a bucket (see docs/scale-out.md, "Media storage"):
///
/// ```
/// {prefix}staging/{postKey}/{publish id}/…   uploaded first
/// {prefix}media/{postKey}/…                  copied from staging on the server
/// {prefix}media/{postKey}/.published         written last; lists the post's files
/// ```
///
/// A reader treats a post without `.published` as absent, so it sees every file or none, and
/// the post's row turns `ready` only after `publish` returns. Files above 16 MiB go multipart
/// in 8 MiB parts; a multipart upload that fails is aborted, and `sweep` aborts and deletes
/// what a killed publisher left behind.
public struct S3MediaStorage: MediaStorage {
    public let client: S3Client
    public let location: S3Location
    let logger: Logger
    let marker = PublishedMarkerCache()
    public var multipartThreshold = 16 << 20
    public var partSize = 8 << 20
    /// Uploads in flight during one publish.
    public var concurrentUploads = 4

    static let markerName = ".published"

    public init(client: S3Client, location: S3Location, logger: Logger = Logger(label: "reelhouse.s3")) {
        self.client = client
        self.location = location
        self.logger = logger
    }

    var bucket: String { location.bucket }
    func mediaPrefix(_ postKey: String) -> String { "\(location.prefix)media/\(postKey)/" }
    func stagingPrefix(_ postKey: String) -> String { "\(location.prefix)staging/\(postKey)/" }

    // MARK: - Publish

    public func publish(stagedDirectory: URL, postKey: String) async throws {
        try await publish(from: stagedDirectory, postKey: postKey)
        // Like the local storage's move: the staged folder is consumed.
        try? FileManager.default.removeItem(at: stagedDirectory)
    }

    /// Publishes a copy of `stagedDirectory`'s files, leaving the folder as it is.
    func publish(from stagedDirectory: URL, postKey: String) async throws {
        try Self.checkPostKey(postKey)
        let files = try Self.regularFiles(under: stagedDirectory)
        let staging = stagingPrefix(postKey) + UUID().uuidString.lowercased() + "/"
        let media = mediaPrefix(postKey)
        do {
            try await forEach(files, limit: concurrentUploads) { relative in
                try await upload(stagedDirectory.appendingPathComponent(relative), key: staging + relative, relative: relative)
            }
            // Leftovers of an earlier, unfinished publish (or a removed post) go first, marker
            // first of all, so no reader ever mixes the two.
            try await client.deleteObject(bucket: bucket, key: media + Self.markerName)
            await marker.forget(postKey)
            try await client.deleteAll(bucket: bucket, prefix: media)
            try await forEach(files, limit: concurrentUploads) { relative in
                try await client.copyObject(bucket: bucket, sourceKey: staging + relative, key: media + relative)
            }
            let listing = files.joined(separator: "\n") + "\n"
            try await client.putObject(bucket: bucket, key: media + Self.markerName, body: Data(listing.utf8), contentType: "text/plain")
        } catch {
            try? await client.deleteAll(bucket: bucket, prefix: staging)
            throw error
        }
        // Staging copies are no longer needed; a sweep catches what this misses.
        do { try await client.deleteAll(bucket: bucket, prefix: staging) } catch {
            logger.warning("could not delete a publish's staging objects", metadata: ["post": "\(postKey)", "error": "\(error)"])
        }
    }

    /// One file: a single PUT, or multipart above the threshold (aborted on any failure).
    func upload(_ file: URL, key: String, relative: String) async throws {
        let size = try Self.size(of: file)
        let type = MediaType.of(relative)
        guard size > multipartThreshold else {
            try await client.putObject(bucket: bucket, key: key, body: try Data(contentsOf: file), contentType: type)
            return
        }
        let uploadID = try await client.createMultipartUpload(bucket: bucket, key: key, contentType: type)
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            var parts: [(number: Int, etag: String)] = []
            while let chunk = try handle.read(upToCount: partSize), !chunk.isEmpty {
                let number = parts.count + 1
                parts.append((number, try await client.uploadPart(bucket: bucket, key: key, uploadID: uploadID, number: number, body: chunk)))
            }
            try await client.completeMultipartUpload(bucket: bucket, key: key, uploadID: uploadID, parts: parts)
        } catch {
            do { try await client.abortMultipartUpload(bucket: bucket, key: key, uploadID: uploadID) } catch let abortError {
                logger.warning("could not abort a failed multipart upload", metadata: ["key": "\(key)", "error": "\(abortError)"])
            }
            throw error
        }
    }

    // MARK: - Remove, list

    public func remove(postKey: String) async throws {
        try Self.checkPostKey(postKey)
        // Marker first: from here on readers see nothing, even while the rest is deleted.
        try await client.deleteObject(bucket: bucket, key: mediaPrefix(postKey) + Self.markerName)
        await marker.forget(postKey)
        try await client.deleteAll(bucket: bucket, prefix: mediaPrefix(postKey))
    }

    /// Every post key with objects under `media/`, published or not (the sweeper removes the
    /// ones no post owns, unfinished publishes included).
    ///
    /// Servers with real folders (SeaweedFS) keep listing an emptied `media/{key}/` as a common
    /// prefix after its last object is deleted, so each prefix is confirmed by a one-key listing:
    /// one small LIST per post folder per call (the hourly sweep). AWS never lists an empty
    /// prefix; there the check always passes.
    public func postKeys() async throws -> [String] {
        var candidates: [String] = []
        var token: String? = nil
        let root = "\(location.prefix)media/"
        repeat {
            let page = try await client.listObjects(bucket: bucket, prefix: root, delimiter: "/", continuationToken: token)
            candidates += page.commonPrefixes.map { String($0.dropFirst(root.count).dropLast()) }.filter(Self.isValidKey)
            token = page.nextContinuationToken
        } while token != nil
        let found = KeyCollector()
        try await forEach(candidates, limit: 8) { key in
            if try await !client.listObjects(bucket: bucket, prefix: root + key + "/", maxKeys: 1).objects.isEmpty {
                await found.add(key)
            }
        }
        return await found.keys.sorted()
    }

    public func localFile(postKey: String, relativePath: String) -> URL? { nil }

    // MARK: - Read

    public func objectInfo(postKey: String, relativePath: String) async throws -> StoredObjectInfo? {
        guard let key = try await publishedKey(postKey: postKey, relativePath: relativePath),
              let info = try await client.headObject(bucket: bucket, key: key)
        else { return nil }
        return StoredObjectInfo(size: info.size, etag: info.etag)
    }

    public func object(postKey: String, relativePath: String, range: ClosedRange<Int>?) async throws -> StoredObject? {
        guard let key = try await publishedKey(postKey: postKey, relativePath: relativePath) else { return nil }
        do {
            guard let object = try await client.getObject(bucket: bucket, key: key, range: range) else { return nil }
            return StoredObject(bytes: object.bytes, size: object.size, etag: object.etag, range: object.range)
        } catch let error as S3Error where error.code == "InvalidRange" {
            return nil
        }
    }

    /// The object key of a file of a *published* post, or nil.
    func publishedKey(postKey: String, relativePath: String) async throws -> String? {
        guard Self.isValidKey(postKey), Self.isPlainRelativePath(relativePath), relativePath != Self.markerName else { return nil }
        if await !marker.isKnownPublished(postKey) {
            guard try await client.headObject(bucket: bucket, key: mediaPrefix(postKey) + Self.markerName) != nil else { return nil }
            await marker.remember(postKey)
        }
        return mediaPrefix(postKey) + relativePath
    }

    // MARK: - Sweep

    /// Aborts multipart uploads and deletes staging objects older than `cutoff` (a day, for the
    /// `storage.sweep` job): what a publisher killed mid-publish leaves behind. Returns how many
    /// uploads and objects went.
    @discardableResult
    public func sweep(olderThan cutoff: Date) async throws -> (aborted: Int, deleted: Int) {
        var aborted = 0
        for upload in try await client.listMultipartUploads(bucket: bucket, prefix: location.prefix) where (upload.initiated ?? .distantPast) < cutoff {
            try await client.abortMultipartUpload(bucket: bucket, key: upload.key, uploadID: upload.uploadID)
            aborted += 1
        }
        let stale = try await client.listAll(bucket: bucket, prefix: "\(location.prefix)staging/").filter { ($0.lastModified ?? .distantPast) < cutoff }
        for batch in stride(from: 0, to: stale.count, by: 1000) {
            try await client.deleteObjects(bucket: bucket, keys: stale[batch..<min(batch + 1000, stale.count)].map(\.key))
        }
        return (aborted, stale.count)
    }

    // MARK: - Helpers

    static func checkPostKey(_ key: String) throws {
        guard isValidKey(key) else { throw S3Error.invalidKey("post key \(key.prefix(40))") }
    }

    /// Post keys are decimal post ids, as on the local disk.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.count <= 20 && key.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static func isPlainRelativePath(_ path: String) -> Bool {
        !path.isEmpty && path.utf8.count <= 512
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Regular files under `folder`, as sorted relative paths (links and folders are not media).
    static func regularFiles(under folder: URL) throws -> [String] {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: base) else {
            throw S3Error.invalidKey("staged folder \(folder.path) cannot be read")
        }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular {
                guard isPlainRelativePath(relative), relative != markerName else { throw S3Error.invalidKey("staged file \(relative)") }
                files.append(relative)
            }
        }
        return files.sorted()
    }

    static func size(of file: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Runs `body` for each item, at most `limit` at a time; the first error cancels the rest.
    func forEach(_ items: [String], limit: Int, _ body: @escaping @Sendable (String) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = items.makeIterator()
            for _ in 0..<max(1, limit) {
                guard let item = next.next() else { break }
                group.addTask { try await body(item) }
            }
            while try await group.next() != nil {
                if let item = next.next() { group.addTask { try await body(item) } }
            }
        }
    }
}

/// Posts known to be published, for a short while: a published post's marker stays until the
/// post is removed, so the common case (many segments of one post) costs one HEAD, not one per
/// file. `remove` on this node forgets at once; another node's removal is seen within `ttl`
/// (its files are deleted anyway, so a stale entry can only turn into a 404).
actor PublishedMarkerCache {
    private let known = BoundedCache<String, Bool, NoRevision>(capacity: 10_000, lifetime: 30)

    func isKnownPublished(_ key: String) -> Bool { known.value(for: key) ?? false }

    func remember(_ key: String) { known.insert(true, for: key) }

    func forget(_ key: String) { known.remove(key) }
}

actor KeyCollector {
    private(set) var keys: [String] = []
    func add(_ key: String) { keys.append(key) }
}
