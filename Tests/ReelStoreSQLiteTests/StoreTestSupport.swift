import Foundation
import ReelModels
import ReelStore
@testable import ReelStorePostgres
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing

/// Every library behaviour is checked on both kinds of store the app can open.
enum StoreLocation: String, CaseIterable, Sendable {
    case inMemory
    case file
}

/// Runs `body` with a fresh store of the given kind, cleaning up its file afterwards.
func withStore(_ location: StoreLocation, _ body: (SQLiteStore) async throws -> Void) async throws {
    switch location {
    case .inMemory:
        try await body(try SQLiteStore.inMemory())
    case .file:
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await body(try SQLiteStore(path: folder.databasePath))
    }
}

/// A fixed instant, so tests reason about leases and backoff without reading the clock.
let t0 = Date(timeIntervalSince1970: 1_700_000_000)

func newPost(
    folderName: String = "clip", contentHash: String = UUID().uuidString, tags: [String] = ["dance"],
    sources: [String] = ["sources/a.mp4"], kind: PostKind = .video, dateAdded: Date = t0
) -> NewPost {
    NewPost(
        kind: kind, folderName: folderName,
        metadata: PostMetadata(
            description: "First try #dance", uploader: "Ana Example", username: "ana.example", shortcode: "725",
            datePosted: "2023-11-14T22:13:20Z", sourceURL: "https://example.com/v/725", tags: tags
        ),
        contentHash: contentHash, sourcePaths: sources, dateAdded: dateAdded
    )
}

let sampleMedia = PublishedMedia(
    duration: 2.5, width: 720, height: 1280, hasSourceAudio: true, encrypted: true, masterPlaylist: "master.m3u8",
    renditions: [
        Rendition(
            name: "720p", width: 720, height: 1280, frameRate: 30, bandwidth: 3_000_000, averageBandwidth: 2_500_000,
            codecs: "avc1.64001f,mp4a.40.2", playlist: "720p/index.m3u8", initSegment: "720p/init.mp4",
            segments: ["720p/seg_00000.m4s", "720p/seg_00001.m4s"]
        ),
    ],
    poster: ImageFile(path: "poster.jpg", width: 720, height: 1280, contentHash: "0123456789abcdef"),
    thumbnail: ImageFile(path: "thumb.jpg", width: 180, height: 320, contentHash: "fedcba9876543210"),
    download: "download.mp4", images: []
)

/// The first column of every row of `sql` as text, on either backend; for checks beneath the
/// protocols (rows really deleted, not hidden).
func rawStrings(_ store: any PortableStore, _ sql: String) async throws -> [String] {
    if let sqlite = store as? SQLiteStore { return try sqlite.rawStrings(sql) }
    if let postgres = store as? PostgresStore { return try await postgres.rawStrings(sql) }
    Issue.record("no raw SQL for \(type(of: store))")
    return []
}
