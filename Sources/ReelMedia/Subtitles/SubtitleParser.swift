import Foundation

/// Reads the two sidecar formats download tools write: WebVTT (yt-dlp `--write-subs`,
/// `--write-auto-subs`) and SubRip `.srt`. Pure: bytes in, cues or the reason out.
///
/// Both readers are strict about what decides timing (a line with `-->` must be a well-formed
/// timing line, end not before start, and there must be at least one cue) and lenient about the
/// rest: a byte-order mark, CRLF or CR line ends, SubRip's cue numbers and WebVTT's NOTE, STYLE
/// and REGION blocks are accepted and dropped, and a block without a timing line is skipped as
/// the WebVTT parser itself does. Styling blocks are not carried over: captions are republished as plain cues.
public enum SubtitleParser {
    public enum Format: String, Sendable {
        case webVTT = "vtt"
        case subRip = "srt"
    }

    /// Larger than any real subtitle file (a two-hour film's auto-captions stay under 2 MB).
    public static let maximumBytes = 8 << 20

    /// Fails with `MediaError.invalidSubtitles`.
    public static func parse(_ data: Data, format: Format) -> Result<[SubtitleCue], MediaError> {
        guard data.count <= maximumBytes else { return .failure(.invalidSubtitles(.tooLarge)) }
        guard var text = String(data: data, encoding: .utf8) else { return .failure(.invalidSubtitles(.notUTF8)) }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // `\r\n` is one Character in Swift; normalising first keeps the line split simple.
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        let cues: [SubtitleCue]
        do {
            cues = try format == .webVTT ? webVTT(lines) : subRip(lines)
        } catch {
            return .failure(error)
        }
        return cues.isEmpty ? .failure(.invalidSubtitles(.noCues)) : .success(cues)
    }

    /// Blocks separated by blank lines, with the 1-based line number of their first line.
    private static func blocks(_ lines: [Substring], from start: Int) -> [(line: Int, lines: [Substring])] {
        var result: [(Int, [Substring])] = []
        var current: [Substring] = []
        var first = start
        for index in start..<lines.count {
            let line = lines[index]
            if line.allSatisfy(\.isWhitespace) {
                if !current.isEmpty { result.append((first + 1, current)) }
                current = []
                first = index + 1
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { result.append((first + 1, current)) }
        return result
    }

    private static func webVTT(_ lines: [Substring]) throws(MediaError) -> [SubtitleCue] {
        guard let header = lines.first, header.hasPrefix("WEBVTT"),
              header.count == 6 || header.dropFirst(6).first == " " || header.dropFirst(6).first == "\t"
        else { throw .invalidSubtitles(.missingHeader) }
        // The header's own block (`Kind:`, `Language:` …) ends at the first blank line.
        let headerEnd = lines.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) ?? lines.count
        var cues: [SubtitleCue] = []
        for block in blocks(lines, from: headerEnd) {
            let first = block.lines[0]
            if first.hasPrefix("NOTE") || first == "STYLE" || first == "REGION" { continue }
            // An optional identifier line comes before the timing line.
            let timingOffset = first.contains("-->") ? 0 : 1
            // A block without a timing line is skipped, as the WebVTT parser does (W3C §6.1).
            guard timingOffset < block.lines.count, block.lines[timingOffset].contains("-->") else { continue }
            let line = block.line + timingOffset
            var cue = try timing(block.lines[timingOffset], line: line, comma: false)
            cue.text = block.lines.dropFirst(timingOffset + 1).joined(separator: "\n")
            cues.append(cue)
        }
        return cues
    }

    private static func subRip(_ lines: [Substring]) throws(MediaError) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        for block in blocks(lines, from: 0) {
            // The cue number is optional in practice; what matters is the timing line.
            let timingOffset = block.lines[0].contains("-->") ? 0 : 1
            // Players skip a block without one (text after a stray blank line, a trailing number).
            guard timingOffset < block.lines.count, block.lines[timingOffset].contains("-->") else { continue }
            var cue = try timing(block.lines[timingOffset], line: block.line + timingOffset, comma: true)
            cue.settings = ""  // SubRip's `X1:… Y2:…` box coordinates have no WebVTT meaning
            // `-->` may not appear in WebVTT cue text; `&gt;` keeps what the reader sees.
            cue.text = block.lines.dropFirst(timingOffset + 1)
                .map { $0.replacingOccurrences(of: "-->", with: "--&gt;") }
                .joined(separator: "\n")
            cues.append(cue)
        }
        return cues
    }

    /// `start --> end [settings]`. SubRip accepts `,` or `.` as the decimal sign.
    private static func timing(_ text: Substring, line: Int, comma: Bool) throws(MediaError) -> SubtitleCue {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count >= 3, parts[1] == "-->",
              let start = SubtitleTime.parse(parts[0], comma: comma) ?? (comma ? SubtitleTime.parse(parts[0]) : nil),
              let end = SubtitleTime.parse(parts[2], comma: comma) ?? (comma ? SubtitleTime.parse(parts[2]) : nil)
        else { throw .invalidSubtitles(.badTiming(line: line, text: String(text))) }
        guard end >= start else { throw .invalidSubtitles(.endBeforeStart(line: line)) }
        return SubtitleCue(start: start, end: end, settings: parts.dropFirst(3).joined(separator: " "), text: "")
    }
}

/// Writes cues as WebVTT.
public enum WebVTTWriter {
    /// A whole file: `WEBVTT`, optional header lines (e.g. `X-TIMESTAMP-MAP=…`), then the cues.
    public static func render(_ cues: [SubtitleCue], headerLines: [String] = []) -> String {
        var text = (["WEBVTT"] + headerLines).joined(separator: "\n") + "\n"
        for cue in cues {
            var timing = SubtitleTime.format(cue.start) + " --> " + SubtitleTime.format(cue.end)
            if !cue.settings.isEmpty { timing += " " + cue.settings }
            text += "\n" + timing + "\n"
            if !cue.text.isEmpty { text += cue.text + "\n" }
        }
        return text
    }
}
