import Foundation
import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

/// Turning rows into model values. A value the model cannot represent (an unknown enum case,
/// unreadable media JSON) is reported as `StoreError.corrupt` rather than silently replaced,
/// so `doctor` and the logs point at the row instead of the symptom.
enum RowDecoding {
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
    static func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 }

    static func job(_ row: Row) throws -> Job {
        let id: Int64 = row["id"]
        return Job(
            id: id,
            kind: try enumValue(row["kind"], JobKind.self, what: "job \(id) kind"),
            postID: row["post_id"],
            state: try enumValue(row["state"], JobState.self, what: "job \(id) state"),
            attempts: row["attempts"],
            maxAttempts: row["max_attempts"],
            progress: row["progress"],
            lastError: row["last_error"],
            leaseOwner: row["lease_owner"],
            leaseExpiresAt: (row["lease_expires_at"] as Double?).map(date),
            runAfter: date(row["run_after"]),
            createdAt: date(row["created_at"]),
            updatedAt: date(row["updated_at"]),
            startedAt: (row["started_at"] as Double?).map(date),
            subject: row["subject"],
            deadlineAt: (row["deadline_at"] as Double?).map(date)
        )
    }

    /// A post from its `posts` row plus its tags and flags (fetched separately, in order).
    static func post(_ row: Row, columns: PostColumns, tags: [String], flags: [String]) throws -> Post {
        let id: Int64 = row[columns.id]
        let metadata = PostMetadata(
            description: row[columns.description], uploader: row[columns.uploader], username: row[columns.username],
            shortcode: row[columns.shortcode], datePosted: row[columns.datePosted], sourceURL: row[columns.sourceURL],
            tags: tags
        )
        var media: PublishedMedia?
        if let json: String = row[columns.mediaJSON] { media = try MediaJSON.decode(json, postID: id) }
        return Post(
            id: id,
            folderName: row[columns.folderName],
            kind: try enumValue(row[columns.kind], PostKind.self, what: "post \(id) kind"),
            status: try enumValue(row[columns.status], PostStatus.self, what: "post \(id) status"),
            metadata: metadata,
            flags: flags,
            dateAdded: date(row[columns.dateAdded]),
            contentHash: row[columns.contentHash],
            media: media,
            failureReason: row[columns.failureReason],
            filter: try enumValue(row[columns.filter], VideoFilter.self, what: "post \(id) filter"),
            createdBy: row[columns.createdBy],
            preparation: try enumValue(row[columns.preparation], SourcePreparation.self, what: "post \(id) preparation"),
            libraryID: row[columns.libraryID],
            trim: try trim(row, columns: columns)
        )
    }

    /// Both trim columns set, or no trim (a half-set pair cannot be encoded and is corrupt).
    private static func trim(_ row: Row, columns: PostColumns) throws -> SourceTrim? {
        guard let indexes = columns.trim else { return nil }
        let start: Double? = row[indexes.start]
        let duration: Double? = row[indexes.duration]
        switch (start, duration) {
        case (nil, nil): return nil
        case (let start?, let duration?) where start >= 0 && duration > 0: return SourceTrim(start: start, duration: duration)
        default:
            let id: Int64 = row[columns.id]
            throw StoreError.corrupt("post \(id) trim_start/trim_duration are \(start.map { "\($0)" } ?? "NULL")/\(duration.map { "\($0)" } ?? "NULL")")
        }
    }

    /// The viewer's state from a feed query's `viewer_…` columns; `ViewerState.none` when the
    /// query selected none, or all are NULL (no state row).
    static func viewerState(_ row: Row, columns: PostColumns.ViewerColumns?) -> ViewerState {
        guard let columns else { return .none }
        // Most posts were never touched by the viewer (the LEFT JOIN found no row): checking
        // for NULLs is far cheaper than decoding four values.
        if row.hasNull(atIndex: columns.favoritedAt), row.hasNull(atIndex: columns.rating),
           row.hasNull(atIndex: columns.position), row.hasNull(atIndex: columns.seenAt) {
            return .none
        }
        return ViewerState(
            isFavorited: (row[columns.favoritedAt] as Double?) != nil,
            rating: (row[columns.rating] as Int?) ?? 0,
            position: row[columns.position],
            seenAt: (row[columns.seenAt] as Double?).map(date)
        )
    }

    /// Media as stored in `media_json`: the Codable default (camelCase keys), sorted for
    /// stable diffs.
    static func enumValue<Value: RawRepresentable<String>>(_ raw: String?, _ type: Value.Type, what: String) throws -> Value {
        guard let raw, let value = Value(rawValue: raw) else {
            throw StoreError.corrupt("\(what) has unknown value \(raw ?? "NULL")")
        }
        return value
    }
}
