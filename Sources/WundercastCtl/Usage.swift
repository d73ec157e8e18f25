import WundercastFormats

/// The text of `wundercastctl --help`: every command, option, format, placeholder, icon set,
/// time limit and exit status. Man pages, completions and bar snippets are made from it:
/// keep it complete and accurate.
public enum Usage {
    public static var text: String {
        let placeholders = Placeholder.allCases.map { "  {\($0.rawValue)}" + pad($0.rawValue) + $0.summary }
        return """
            usage: wundercastctl [OPTIONS] COMMAND [ARGUMENTS]

            Asks wundercastd, the weather+GPS daemon, over its Unix socket.

            commands:
              now                    the current weather, at once
              watch [weather] [every SPAN]
                                     the current weather, then one line per change, until
                                     interrupted; reconnects by itself when the daemon
                                     restarts (weather: only weather changes; every SPAN:
                                     at most one line per SPAN, e.g. every 60s)
              weather PLACE|LAT,LON  the weather anywhere, e.g. weather Tromsø,
                                     weather 48.14,11.58
              around [PLACE|LAT,LON] [STEP]
                                     3×3 grid of temperatures around the daemon's (or the
                                     given) position, STEP degrees apart (default 1), the
                                     centre in brackets
              alerts                 the official alerts in force at the daemon's position,
                                     in full (or why there are none to show: none in force,
                                     the source unavailable, no source for the place,
                                     alerts off)
              status                 the daemon's health: gpsd, fix, authorization, errors,
                                     counters
              refresh                fetch the weather again as soon as the throttle allows
              authorize [always|when-in-use|denied|ask]
                                     show, or decide, GPS use
              version                this program's and the daemon's version
              help                   this text

            options (anywhere on the line; also --format=VALUE, -f VALUE, -fVALUE):
              -s, --socket PATH      the daemon's socket (else $WUNDERCAST_SOCKET, else
                                     /run/wundercast/wundercast.sock, or
                                     $XDG_RUNTIME_DIR/wundercast/wundercast.sock when only
                                     that exists)
              -f, --format FORMAT    plain (default), json, waybar, i3blocks, i3status-rs,
                                     polybar, i3bar
              -j, --json             the same as --format json
              -t, --template TEXT    the text of plain and bar formats, e.g.
                                     '{icon} {temperature}{unit} {condition} {place}'
                  --short-template TEXT
                                     the short text of i3blocks, i3bar and i3status-rs;
                                     default: the --template's text when one is given,
                                     else '{icon} {temperature}{unit}'
              -i, --icons SET        emoji (default), nerd (Nerd Font nf-weather-* glyphs),
                                     weather-icons (Erik Flowers' Weather Icons glyphs)
                  --icon-font FONT   the icon alone in its own font: a font family for
                                     waybar, i3bar and i3blocks (Pango markup, e.g.
                                     'Noto Color Emoji'; i3blocks needs markup=pango),
                                     polybar's font number in %{T…} (2 is font-1);
                                     all other text stays escaped
                  --timeout SPAN     bound of each call: connecting, sending, each answer
                                     (for watch: connecting and the first answer); default
                                     2s, 15s for weather and around (they may wait on the
                                     network); e.g. 500ms, 5s
                  --hide-offline     bar formats: empty output in the bar's own form (an
                                     empty line, empty text) instead of an offline line, or
                                     when there is no weather: the bar hides the widget
                  --colors SCHEME    i3blocks and i3bar colours: none (default: the bar's
                                     own), dark or light; else $WUNDERCAST_COLORS
                  --hot T            waybar, i3blocks, i3bar: from T degrees up (in the
                                     daemon's temperature unit) the class hot; with
                                     --colors dark or light a colour too, while the
                                     weather is fresh and no alert is in force
                  --cold T           the same from T degrees down: the class cold
                                     (--hot must be above --cold)
                  --log FILE         bar formats write nothing to stderr (a bar may show it
                                     in the widget); their messages are appended to FILE
              -V, --version          this program's version only
              -h, --help             this text

            formats:
              plain        human lines: 3°C Overcast, humidity 72%, 12 km NE of Regensburg,
                           2 min ago
              json         the daemon's JSON object as received (docs/PROTOCOL.md)
              waybar       one JSON object per line: text, alt (condition), tooltip, class
                           (array: condition, stale, offline, error, noLocation, fetching,
                           severe, alert, alert-moderate|severe|extreme,
                           alerts-unavailable, hot, cold; daemon-offline, daemon-error
                           when the daemon is down or refused), percentage (relative
                           humidity); custom module with return-type json
              i3blocks     three lines: full_text, short_text, color; now exits 33
                           (urgent) for severe weather (WMO 65, 67, 75, 82, 86, 95-99)
                           and for an official alert of CAP severity Severe or Extreme
              i3status-rs  {"icon":…,"state":"Idle|Info|Warning|Critical","text":…,
                           "short_text":…} for the custom block with json = true; icon:
                           i3status-rust's weather icon, by day or night (weather_sun,
                           weather_moon, …); the texts carry no icon ({icon} is empty)
              polybar      one line (text cannot open a %{ tag); custom/script,
                           tail = true for watch
              i3bar        the i3bar/swaybar protocol: {"version":1}, [, then one array
                           of blocks per line
            Bar formats show staleness (text ends in "(stale)", class stale, state Warning).

            template placeholders (missing values expand to nothing; {{ and }} are braces):
            \(placeholders.joined(separator: "\n"))

            When the daemon is down or does not answer within the timeout, bar formats
            print a marked offline line (e.g. "⚠ wundercast offline", class
            daemon-offline) and exit 0; plain and json print the reason on stderr and exit
            with status 1. watch then retries after 1 s, doubling up to 30 s, with an
            offline line in bar formats (a message on stderr in plain and json); it ends
            when the daemon refuses the request itself (bad argument, not permitted), as
            soon as its reader is gone (its output hung up) and when the process that
            started it ends. Between the daemon's lines it shows the last state again when
            an age would read differently (at most once a minute, or once per every SPAN;
            never in json). Every text from the daemon is stripped of control characters
            and bounded before it is printed.

            exit status:
              0   the daemon answered (whatever the weather's status); bar formats also when
                  it is down, did not answer or refused the request (an offline or error
                  line)
              1   plain and json: the daemon is down, did not answer in time, or answered
                  ERROR (its message on stderr)
              2   usage error
              33  i3blocks: now found severe weather or an official Severe/Extreme alert
            """
    }

    /// Blanks after `{name}` up to the summary column; a name too long for it gets its summary
    /// on the next line, in that column.
    static func pad(_ name: String) -> String {
        name.count <= 16
            ? String(repeating: " ", count: 17 - name.count) : "\n" + String(repeating: " ", count: 21)
    }
}
