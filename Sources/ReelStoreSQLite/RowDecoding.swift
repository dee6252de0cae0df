import Foundation
import GRDB
import ReelModels
import ReelStore

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
    static func post(_ row: Row, tags: [String], flags: [String]) throws -> Post {
        let id: Int64 = row["id"]
        let metadata = PostMetadata(
            description: row["description"], uploader: row["uploader"], username: row["username"],
            shortcode: row["shortcode"], datePosted: row["date_posted"], sourceURL: row["source_url"],
            tags: tags
        )
        var media: PublishedMedia?
        if let json: String = row["media_json"] {
            do {
                media = try MediaDecodeCache.shared.media(for: json)
            } catch {
                throw StoreError.corrupt("post \(id) media_json: \(error)")
            }
        }
        return Post(
            id: id,
            folderName: row["folder_name"],
            kind: try enumValue(row["kind"], PostKind.self, what: "post \(id) kind"),
            status: try enumValue(row["status"], PostStatus.self, what: "post \(id) status"),
            metadata: metadata,
            flags: flags,
            dateAdded: date(row["date_added"]),
            contentHash: row["content_hash"],
            media: media,
            failureReason: row["failure_reason"],
            filter: try enumValue(row["filter"], VideoFilter.self, what: "post \(id) filter"),
            createdBy: row["created_by"],
            preparation: try enumValue(row["preparation"], SourcePreparation.self, what: "post \(id) preparation")
        )
    }

    /// Media as stored in `media_json`: the Codable default (camelCase keys), sorted for
    /// stable diffs.
    static func mediaJSON(_ media: PublishedMedia) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(media), as: UTF8.self)
    }

    static func enumValue<Value: RawRepresentable<String>>(_ raw: String?, _ type: Value.Type, what: String) throws -> Value {
        guard let raw, let value = Value(rawValue: raw) else {
            throw StoreError.corrupt("\(what) has unknown value \(raw ?? "NULL")")
        }
        return value
    }
}
