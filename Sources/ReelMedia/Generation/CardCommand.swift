/// ffmpeg arguments for the embedded generation provider: an animated text card over a
/// generated background, rendered 9:16 (or 16:9) in one process. The prompt reaches ffmpeg only
/// through a text file (`drawtext=textfile=`), never inside the filter string, so no prompt can
/// change the filter graph, and `expansion=none` keeps `%{…}` in a prompt literal.
public struct CardCommand: Sendable, Equatable {
    public enum Background: String, Sendable, CaseIterable {
        case aurora, sunset, matrix, mono
    }

    public var background: Background
    public var width: Int
    public var height: Int
    public var seconds: Int
    /// The wrapped prompt lives here; the caller writes it.
    public var textFile: String
    public var fontFile: String?
    public var output: String

    public init(background: Background, width: Int, height: Int, seconds: Int, textFile: String, fontFile: String?, output: String) {
        self.background = background
        self.width = width
        self.height = height
        self.seconds = seconds
        self.textFile = textFile
        self.fontFile = fontFile
        self.output = output
    }

    public var arguments: [String] {
        var filters = [backgroundFilter]
        if let fontFile {
            let size = max(28, min(width, height) / 16)
            // Fades in over the first second while rising 40 px: a card, not a slide.
            filters.append(
                "drawtext=fontfile=\(fontFile):textfile=\(textFile):expansion=none:fontcolor=white:fontsize=\(size):line_spacing=\(size / 3)"
                    + ":box=1:boxcolor=black@0.35:boxborderw=\(size / 2):x=(w-text_w)/2"
                    + ":y=(h-text_h)/2+40*(1-min(t\\,1)):alpha=min(t\\,1)"
            )
        }
        return [
            "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", source,
            "-f", "lavfi", "-i", "anullsrc=channel_layout=stereo:sample_rate=48000",
            "-filter_complex", "[0:v]" + filters.joined(separator: ",") + "[v]",
            "-map", "[v]", "-map", "1:a",
            "-t", String(seconds), "-r", "30",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "64k", "-shortest",
            "-movflags", "+faststart", output,
        ]
    }

    var source: String {
        let size = "size=\(width)x\(height):rate=30"
        switch background {
        case .aurora: return "gradients=\(size):c0=0x0f766e:c1=0x1e3a8a:c2=0x4c1d95:nb_colors=3:speed=0.015"
        case .sunset: return "gradients=\(size):c0=0xf97316:c1=0xdb2777:c2=0x581c87:nb_colors=3:speed=0.01"
        case .matrix: return "life=size=\(width / 8)x\(height / 8):rate=30:mold=10:life_color=#22c55e:death_color=#020617:mold_color=#064e3b"
        case .mono: return "color=c=0x6b7280:\(size)"
        }
    }

    var backgroundFilter: String {
        switch background {
        case .aurora, .sunset: "format=yuv420p"
        case .matrix: "scale=\(width):\(height):flags=neighbor,format=yuv420p"
        case .mono: "noise=alls=30:allf=t,format=gray,format=yuv420p"
        }
    }

    /// Breaks a prompt into lines of at most `width` characters at spaces (long words are cut),
    /// at most `maxLines` lines with an ellipsis when it goes on.
    public static func wrap(_ text: String, width: Int = 22, maxLines: Int = 8) -> String {
        var lines: [String] = []
        var current = ""
        let words = text.split(whereSeparator: \.isWhitespace).flatMap { word -> [String] in
            stride(from: 0, to: word.count, by: width).map { start in
                let from = word.index(word.startIndex, offsetBy: start)
                let to = word.index(from, offsetBy: min(width, word.count - start))
                return String(word[from..<to])
            }
        }
        for word in words {
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] += "…"
        }
        return lines.joined(separator: "\n")
    }
}
