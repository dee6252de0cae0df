import Foundation

/// Recognises the first bytes of the containers we accept. ffprobe picks a demuxer from the file
/// extension, so a text file named `.mp4` comes back as "moov atom not found" — a truncated
/// MP4 to ffprobe, but plainly *not media* to a person. The signature tells the two apart.
public enum ContainerSignature {
    /// True if `header` (the file's first bytes, 16 are enough) starts like a video or image
    /// container: ISO BMFF (mp4/mov/m4v/heic), Matroska/WebM, JPEG, PNG, GIF or WebP.
    public static func looksLikeMedia(_ header: Data) -> Bool {
        let bytes = [UInt8](header.prefix(16))
        guard bytes.count >= 4 else { return false }
        if bytes.count >= 8 {
            let box = String(decoding: bytes[4..<8], as: UTF8.self)
            if ["ftyp", "moov", "mdat", "free", "wide", "skip", "pnot"].contains(box) { return true }
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }        // Matroska / WebM
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return true }              // JPEG
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return true }        // PNG
        if bytes.starts(with: Array("GIF8".utf8)) { return true }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return true }
        return false
    }
}
