import ReelModels

extension VideoFilter {
    /// The ffmpeg filter chain for this look, applied once to the decoded picture before it is
    /// split into rungs and the poster (see `TranscodeOptions.filterGraphPrefix`). Fixed
    /// strings only: nothing a client sends becomes filter text.
    public var ffmpegChain: String? {
        switch self {
        case .none: nil
        // Zero saturation keeps the chroma planes neutral (U = V = 128): truly grey frames.
        case .mono: "hue=s=0"
        case .vivid: "eq=saturation=1.6:contrast=1.08"
        // Colour temperature rather than colorbalance: ffmpeg 5.1's colorbalance leaves mid-grey
        // untouched, so a grey wall would not look warmer at all.
        case .warm: "colortemperature=temperature=4800"
        case .cool: "colortemperature=temperature=9000"
        case .vintage: "curves=preset=vintage,eq=saturation=0.75"
        }
    }
}
