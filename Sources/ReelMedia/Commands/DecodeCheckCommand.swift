/// A still image is small enough to decode whole before we accept it: a PNG cut in half probes
/// fine (its header is intact) but fails here, so it is rejected up front instead of failing
/// later in a job.
public enum DecodeCheckCommand {
    /// ffmpeg decodes the first frame to nowhere; any stderr output or a non-zero exit means the
    /// picture is not decodable.
    public static func arguments(path: String) -> [String] {
        ["-hide_banner", "-nostdin", "-v", "error", "-i", FFprobe.fileURL(path), "-frames:v", "1", "-f", "null", "-"]
    }
}
