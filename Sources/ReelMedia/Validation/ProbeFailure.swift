import Foundation

/// Reasons for ffprobe refusing a file, recognised from its stderr (ffmpeg 5.1 wording).
extension MediaValidator {
    /// Turns a failed ffprobe run's stderr into a rejection a person understands. The most
    /// specific phrase wins: "moov atom not found" also comes with "Invalid data found", but
    /// means a truncated or still-uploading MP4, not a non-media file.
    public static func rejectionForProbeFailure(stderr: String) -> Rejection {
        let text = stderr.lowercased()
        let known: [(phrase: String, code: String, message: String)] = [
            ("moov atom not found", "truncated", "truncated: moov atom not found (the MP4 index is missing; incomplete upload or download?)"),
            ("partial file", "truncated", "truncated: the file ends before its data does (partial file)"),
            ("no such file or directory", "not_media", "the file does not exist"),
            ("permission denied", "not_media", "the file cannot be read (permission denied)"),
            ("end of file", "truncated", "truncated: unexpected end of file"),
            ("does not contain any stream", "not_media", "not a media file: it contains no streams"),
            ("invalid data found when processing input", "not_media", "not a media file (ffprobe found no recognisable format)"),
        ]
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return Rejection(code: "not_media", message: "not a media file (ffprobe failed without saying why)")
        }
        if let match = known.first(where: { text.contains($0.phrase) }) {
            return Rejection(code: match.code, message: match.message)
        }
        let lastLine = stderr.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return Rejection(code: "not_media", message: "not a media file: \(lastLine.trimmingCharacters(in: .whitespaces))")
    }
}
