import WundercastFormats
import WundercastPOSIX

extension UserLocale {
    /// wundercastctl's gettext text domain: `<directory>/<lang>/LC_MESSAGES/wundercast.mo`.
    public static let textDomain = "wundercast"

    /// The reader's locale, read once at start (``Ctl/main(_:)``) from the environment as
    /// `setlocale(LC_ALL, "")` reads it: `LC_ALL`, else `LC_MESSAGES` (language), `LC_TIME`
    /// (12- or 24-hour clock), `LC_NUMERIC` (decimal separator), else `LANG`; gettext's
    /// `LANGUAGE` list too, except under the C locale. A locale not generated on the machine
    /// (`locale -a`) counts as C: English, 24-hour clock, decimal point. The catalogues are
    /// looked up in ``catalogDirectory(environment:executable:)``.
    public static func current() -> UserLocale {
        from(
            Gettext(
                domain: textDomain,
                directory: catalogDirectory(
                    environment: { Environment.value($0) }, executable: ProcessControl.executablePath)))
    }

    /// The locale `name` (`de_DE.UTF-8`) whatever the environment, with the catalogues in
    /// `directory`: for tests, which ask in several languages at once.
    public static func named(_ name: String, catalogs directory: String) -> UserLocale {
        from(Gettext(domain: textDomain, directory: directory, localeName: name))
    }

    /// `$WUNDERCAST_LOCALEDIR` when set (tests; a build tree), else `share/locale` of the
    /// installation the program runs from (`/usr/local/bin/wundercastctl` →
    /// `/usr/local/share/locale`, where `make install` puts the catalogues), else
    /// `/usr/share/locale`.
    static func catalogDirectory(environment: (String) -> String?, executable: String?) -> String {
        if let directory = environment("WUNDERCAST_LOCALEDIR"), !directory.isEmpty { return directory }
        guard let executable, executable.hasPrefix("/") else { return "/usr/share/locale" }
        var parts = executable.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2 else { return "/usr/share/locale" }
        parts.removeLast(2)  // the program's name and its `bin`
        return "/" + (parts.map(String.init) + ["share", "locale"]).joined(separator: "/")
    }

    static func from(_ gettext: Gettext) -> UserLocale {
        UserLocale(
            messages: Messages(single: { gettext.text($0) }, plural: { gettext.plural($0, $1, count: $2) }),
            clock: ClockStyle(
                timeFormat: gettext.timeFormat, amPmFormat: gettext.timeFormatAMPM, am: gettext.am, pm: gettext.pm),
            decimalSeparator: gettext.decimalPoint)
    }
}
