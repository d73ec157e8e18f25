#ifndef WUNDERCAST_CINTL_SHIM_H
#define WUNDERCAST_CINTL_SHIM_H
// glibc's gettext (<libintl.h>, which Swift's Glibc module does not import: dgettext,
// dngettext, bindtextdomain, bind_textdomain_codeset) and the locale queries wundercastctl's
// text follows (<locale.h>: setlocale, localeconv, newlocale, uselocale; <langinfo.h>:
// nl_langinfo(_l)), for WundercastPOSIX's Gettext. All in libc: nothing more is linked.
//
// The shims exist because Swift cannot use what is written as macros (LC_ALL_MASK,
// (locale_t) 0, RADIXCHAR) and because a lookup must run under one locale object
// (uselocale) on the calling thread — the process's setlocale is left as it is, so that
// one process (the tests) can ask in several languages at once.
#include <libintl.h>
#include <locale.h>
#include <langinfo.h>

/// The locale named `name` in every category; "" reads LC_ALL, LC_* and LANG from the
/// environment as setlocale(LC_ALL, "") does. NULL when it does not exist (not generated:
/// `locale -a`). Free with freelocale.
static inline locale_t cintl_locale(const char *name) {
    return newlocale(LC_ALL_MASK, name, (locale_t) 0);
}

/// dgettext(domain, msgid) as under `locale`: its LC_MESSAGES picks the catalogue (and
/// $LANGUAGE is read unless that is the C locale).
static inline const char *cintl_dgettext(locale_t locale, const char *domain, const char *msgid) {
    locale_t previous = uselocale(locale);
    const char *text = dgettext(domain, msgid);
    uselocale(previous);
    return text;
}

/// dngettext(domain, singular, plural, n) as under `locale` (the catalogue's Plural-Forms
/// choose the form; without a translation: singular for n == 1, else plural).
static inline const char *cintl_dngettext(
    locale_t locale, const char *domain, const char *singular, const char *plural, unsigned long n) {
    locale_t previous = uselocale(locale);
    const char *text = dngettext(domain, singular, plural, n);
    uselocale(previous);
    return text;
}

/// nl_langinfo_l's items wundercastctl reads (LC_TIME and LC_NUMERIC of `locale`).
static inline const char *cintl_time_format(locale_t locale) { return nl_langinfo_l(T_FMT, locale); }
static inline const char *cintl_time_format_ampm(locale_t locale) { return nl_langinfo_l(T_FMT_AMPM, locale); }
static inline const char *cintl_am(locale_t locale) { return nl_langinfo_l(AM_STR, locale); }
static inline const char *cintl_pm(locale_t locale) { return nl_langinfo_l(PM_STR, locale); }
/// localeconv()->decimal_point of `locale` (localeconv itself reads only the process's locale).
static inline const char *cintl_decimal_point(locale_t locale) { return nl_langinfo_l(RADIXCHAR, locale); }
/// The name of `locale`'s LC_MESSAGES ("C", "de_DE.UTF-8").
static inline const char *cintl_messages_name(locale_t locale) {
    return nl_langinfo_l(_NL_LOCALE_NAME(LC_MESSAGES), locale);
}
#endif
