/// Release facts sent in the User-Agent and the `version` response.
public enum Wundercast {
    /// Release version.
    public static let version = "0.1.0"
    /// Protocol revision of the socket protocol (docs/PROTOCOL.md).
    public static let protocolVersion = 1
    /// Project address, sent in the User-Agent so providers can reach the maintainers.
    public static let projectURL = "https://github.com/wundercast/wundercast"
    /// `wundercast/<version> (+<project URL>)`: providers ask for an identifying User-Agent
    /// (MET Norway answers 403 without one; PITFALLS).
    public static var userAgent: String { "wundercast/\(version) (+\(projectURL))" }
}
