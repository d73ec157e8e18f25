import CIntl

/// One text domain of glibc's gettext (`dgettext`, `dngettext`) read under one locale, and
/// that locale's clock and decimal point (`nl_langinfo`): what wundercastctl's text follows.
///
/// The locale is its own object (`newlocale`; each lookup runs under it with `uselocale` on the
/// calling thread), never the process's (`setlocale` is not called): nothing else in the
/// process changes — Swift's and the JSON encoder's numbers stay as they are — and one process
/// may hold several (the tests ask in every language at once). Lookups are thread-safe.
/// `bindtextdomain` is process-wide: the last directory bound for a domain wins.
public final class Gettext: @unchecked Sendable {
    /// The text domain (`wundercast`: `<directory>/<lang>/LC_MESSAGES/wundercast.mo`).
    public let domain: String
    /// Never mutated after `init`; freed in `deinit`. A C locale when the one asked for does not exist.
    private let locale: locale_t

    /// Binds `domain` to `directory` (UTF-8 output) and opens the locale `name`: `nil` reads
    /// the environment as `setlocale(LC_ALL, "")` does (`LC_ALL`, then `LC_MESSAGES`,
    /// `LC_TIME`, `LC_NUMERIC`, then `LANG`). A locale that does not exist on the machine (not
    /// generated: `locale -a`) gives the C locale: English, 24-hour clock, decimal point.
    public init(domain: String, directory: String, localeName name: String? = nil) {
        self.domain = domain
        bindtextdomain(domain, directory)
        bind_textdomain_codeset(domain, "UTF-8")
        locale = cintl_locale(name ?? "") ?? cintl_locale("C")!
    }

    deinit { freelocale(locale) }

    /// The translation of `msgid`, or `msgid` itself when there is none.
    public func text(_ msgid: String) -> String {
        // Without a translation gettext returns the msgid's own pointer: read it while the C
        // string Swift made for the call still exists.
        msgid.withCString { id in String(cString: cintl_dgettext(locale, domain, id)) }
    }

    /// The translation of `singular`/`plural` for `count` (the catalogue's plural rule picks the
    /// form: Polish has three); without one, `singular` for 1, else `plural`.
    public func plural(_ singular: String, _ plural: String, count: Int) -> String {
        singular.withCString { one in
            plural.withCString { other in
                String(cString: cintl_dngettext(locale, domain, one, other, UInt(max(0, count))))
            }
        }
    }

    /// `nl_langinfo(T_FMT)`: `%H:%M:%S` (C), `%r` (en_US), `%T` (de_DE), `kl. %H.%M %z` (nb_NO).
    public var timeFormat: String { String(cString: cintl_time_format(locale)) }
    /// `nl_langinfo(T_FMT_AMPM)`: `%I:%M:%S %p` (en_US); empty where the locale has no 12-hour clock.
    public var timeFormatAMPM: String { String(cString: cintl_time_format_ampm(locale)) }
    /// `nl_langinfo(AM_STR)`, `PM_STR`: `AM`, `PM` (en_US); empty in most 24-hour locales.
    public var am: String { String(cString: cintl_am(locale)) }
    public var pm: String { String(cString: cintl_pm(locale)) }
    /// `localeconv()->decimal_point` of the locale's `LC_NUMERIC`: `.` (C, en), `,` (de, fr, pl, …).
    public var decimalPoint: String { String(cString: cintl_decimal_point(locale)) }
    /// The locale's `LC_MESSAGES` name (`C`, `de_DE.UTF-8`).
    public var messagesLocale: String { String(cString: cintl_messages_name(locale)) }
}
