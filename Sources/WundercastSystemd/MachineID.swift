import CSystemd

/// This machine's identity as an application may show it: systemd's app-specific machine id
/// (`sd_id128_get_machine_app_specific`), an HMAC of `/etc/machine-id` keyed by the
/// application's own id, so that it is stable on one machine, different per application, and
/// tells nothing of the machine id itself (machine-id(5): never publish the raw one).
public enum MachineID {
    /// wundercast's application id (made once with `systemd-id128 new`).
    public static let wundercast: (UInt64, UInt64) = (0x5e9a_905b_ad4a_42e1, 0x9bb5_ff6c_c520_8a40)

    /// The app-specific machine id for `app` as 32 lowercase hex digits.
    ///
    /// - Throws: ``SystemdError`` (`ENOENT`, `ENOMEDIUM`: no or an empty `/etc/machine-id`).
    public static func appSpecific(_ app: (UInt64, UInt64) = wundercast) throws(SystemdError) -> String {
        var id = sd_id128_t()
        withUnsafeMutableBytes(of: &id.bytes) { bytes in
            for (index, byte) in (0..<16).map({ index -> UInt8 in
                let word = index < 8 ? app.0 : app.1
                return UInt8(truncatingIfNeeded: word >> (8 * (7 - index % 8)))
            }).enumerated() {
                bytes[index] = byte
            }
        }
        var result = sd_id128_t()
        let code = sd_id128_get_machine_app_specific(id, &result)
        guard code >= 0 else { throw SystemdError(function: "sd_id128_get_machine_app_specific", errno: -code) }
        return withUnsafeBytes(of: result.bytes) { bytes in
            bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
