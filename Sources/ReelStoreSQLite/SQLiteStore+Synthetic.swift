import Foundation
import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

extension SQLiteStore {
    /// Bulk-inserts `count` ready video posts with plausible metadata, `tagsPerPost` tags each
    /// (from a 500-word vocabulary, skewed so a few tags are common and most are rare, as in a
    /// real library), random shuffle keys and one small fixed `PublishedMedia`: a library of
    /// realistic shape for benchmarks and load tests.
    ///
    /// One transaction with prepared statements and a large page cache, because a million rows
    /// committed one by one would take hours, not seconds. Synchronous: it is a setup step.
    /// Not for a library in use: a large batch rebuilds the feed indexes over every post.
    ///
    /// Post `i` is by uploader `i % uploaders`. `durations` (seconds) spreads lengths
    /// log-uniformly over the range, deterministically by index (the feed simulator needs short
    /// and long posts); nil gives every post 12.5 s.
    public func insertSyntheticPosts(
        count: Int, tagsPerPost: Int, now: Date, uploaders: Int = 997, durations: ClosedRange<Double>? = nil
    ) throws {
        guard count > 0 else { return }
        let uploaders = max(1, uploaders)
        var mediaByDuration: [Double: String] = [:]
        func media(for index: Int) throws -> (json: String, seconds: Double) {
            let seconds = durations.map { Self.syntheticDuration(index: index, in: $0) } ?? Self.syntheticMedia.duration ?? 12.5
            if let known = mediaByDuration[seconds] { return (known, seconds) }
            var shaped = Self.syntheticMedia
            shaped.duration = seconds
            let json = try MediaJSON.encode(shaped)
            mediaByDuration[seconds] = json
            return (json, seconds)
        }
        let vocabulary = (0..<500).map { "topic\($0)" }
        let run = UInt32.random(in: 0 ... UInt32.max)
        do {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = -262144")
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                try db.inTransaction(.immediate) {
                    // Filling a B-tree at random positions row by row costs far more than
                    // sorting once: for a big batch, drop the secondary indexes that may go
                    // (not the UNIQUE ones, which enforce rules) and rebuild them from their own
                    // DDL before committing. Readers never see the gap: it is one transaction.
                    let rebuilt = count >= 20_000 ? try Row.fetchAll(
                        db,
                        sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('posts', 'post_tag_ids')"
                    ).map { (name: $0["name"] as String, sql: $0["sql"] as String) } : []
                    for index in rebuilt { try db.execute(sql: "DROP INDEX \(index.name)") }
                    // Likewise the search triggers, which would rewrite each post's index rows once
                    // per tag: the index is rebuilt once at the end instead.
                    let searchTriggers = count >= 20_000 ? try Row.fetchAll(
                        db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%search%'"
                    ).map { (name: $0["name"] as String, sql: $0["sql"] as String) } : []
                    for trigger in searchTriggers { try db.execute(sql: "DROP TRIGGER \(trigger.name)") }
                    var generator = SystemRandomNumberGenerator()
                    let tagIDs = try vocabulary.map { try Vocabulary.tags.ensureID(db, name: $0) }
                    let columns = ["folder_name", "kind", "status", "description", "uploader", "username", "shortcode",
                                   "date_posted", "source_url", "date_added", "content_hash", "media_json", "width", "height",
                                   "duration", "title_key"] + (0..<FeedShuffle.keyCount).map(FeedShuffleColumns.name)
                    let insertPost = try db.makeStatement(
                        sql: "INSERT INTO posts (\(columns.joined(separator: ", "))) VALUES (\(Self.placeholders(columns.count)))"
                    )
                    let insertTag = try db.makeStatement(sql: "INSERT OR IGNORE INTO post_tag_ids (post_id, tag_id) VALUES (?, ?)")
                    for index in 0..<count {
                        let hash = (0..<4).map { _ in
                            let hex = String(UInt64.random(in: 0 ... UInt64.max, using: &generator), radix: 16)
                            return String(repeating: "0", count: 16 - hex.count) + hex
                        }.joined()
                        let description = "Synthetic clip \(index) #\(vocabulary[index % vocabulary.count])"
                        let folder = "synthetic-\(run)-\(index)"
                        let (mediaJSON, seconds) = try media(for: index)
                        // The A–Z key written with the row, so its trigger finds nothing to do.
                        var values: [(any DatabaseValueConvertible)?] = [
                            folder, PostKind.video.rawValue, PostStatus.ready.rawValue,
                            description, "Uploader \(index % uploaders)",
                            "user\(index % uploaders)", "s\(index)", "2024-01-01T00:00:00Z", "https://example.com/v/\(index)",
                            RowDecoding.seconds(now) - Double(count - index), hash, mediaJSON, 720, 1280, seconds,
                            TitleKeyFunction.key(description: description, shortcode: "s\(index)", folderName: folder),
                        ]
                        values += FeedShuffle.randomKeys(using: &generator).map { $0 as (any DatabaseValueConvertible)? }
                        insertPost.setUncheckedArguments(StatementArguments(values))
                        try insertPost.execute()
                        let postID = db.lastInsertedRowID
                        for _ in 0..<max(0, tagsPerPost) {
                            // Squaring a uniform draw favours low indexes: a long-tailed vocabulary.
                            let draw = Double.random(in: 0..<1, using: &generator)
                            let tag = tagIDs[Int(draw * draw * Double(tagIDs.count))]
                            insertTag.setUncheckedArguments([postID, tag])
                            try insertTag.execute()
                        }
                    }
                    for index in rebuilt { try db.execute(sql: index.sql) }
                    for trigger in searchTriggers { try db.execute(sql: trigger.sql) }
                    if !searchTriggers.isEmpty { try db.execute(sql: SearchIndexSQL.rebuild()) }
                    return .commit
                }
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Log-uniform over `range` along a golden-ratio sequence of the index (evenly spread, the
    /// same for every run), rounded to half seconds.
    static func syntheticDuration(index: Int, in range: ClosedRange<Double>) -> Double {
        let lower = max(0.5, range.lowerBound), upper = max(lower, range.upperBound)
        let position = (Double(index) * 0.618_033_988_749_894_9).truncatingRemainder(dividingBy: 1)
        return min(upper, max(lower, (lower * pow(upper / lower, position) * 2).rounded() / 2))
    }

    /// One 720p rendition of two segments, with poster and thumbnail: small, but the same shape
    /// as real media, so decoding cost in benchmarks is honest.
    static let syntheticMedia = PublishedMedia(
        duration: 12.5, width: 720, height: 1280, hasSourceAudio: true, encrypted: false, masterPlaylist: "master.m3u8",
        renditions: [
            Rendition(
                name: "720p", width: 720, height: 1280, frameRate: 30, bandwidth: 2_800_000, averageBandwidth: 2_200_000,
                codecs: "avc1.64001f,mp4a.40.2", playlist: "720p/index.m3u8", initSegment: "720p/init.mp4",
                segments: ["720p/seg_00000.m4s", "720p/seg_00001.m4s"]
            ),
        ],
        poster: ImageFile(path: "poster.jpg", width: 720, height: 1280, contentHash: "0123456789abcdef"),
        thumbnail: ImageFile(path: "thumb.jpg", width: 180, height: 320, contentHash: "fedcba9876543210"),
        download: "download.mp4", images: []
    )
}
