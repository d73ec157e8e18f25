# fish completion for wundercastctl(1): commands, options, formats, icon sets, authorize statuses.
# Installed as $(PREFIX)/share/fish/vendor_completions.d/wundercastctl.fish.

set -l commands now watch weather around alerts status refresh authorize version help

complete -c wundercastctl -f
complete -c wundercastctl -s s -l socket -r -F -d "The daemon's socket"
complete -c wundercastctl -s f -l format -x -a "plain json waybar i3blocks i3status-rs polybar i3bar" -d "Output format"
complete -c wundercastctl -s j -l json -d "The same as --format json"
complete -c wundercastctl -s t -l template -x -d "Text with placeholders: {icon} {temperature}{unit} {condition} …"
complete -c wundercastctl -l short-template -x -d "Short text of i3blocks, i3bar and i3status-rs"
complete -c wundercastctl -s i -l icons -x -a "emoji nerd weather-icons" -d "Icon set of {icon}"
complete -c wundercastctl -l icon-font -x -d "The icon in its own font: a family, or polybar's font number"
complete -c wundercastctl -l timeout -x -a "500ms 1s 2s 5s 15s" -d "Bound of each call"
complete -c wundercastctl -l hide-offline -d "Bar formats: an empty line instead of an offline line"
complete -c wundercastctl -l log -r -F -d "Bar formats: append messages to this file, not stderr"
complete -c wundercastctl -l colors -x -a "none dark light" -d "i3blocks and i3bar colours"
complete -c wundercastctl -l hot -x -d "Class hot (waybar) or colour (i3blocks, i3bar) from this temperature up"
complete -c wundercastctl -l cold -x -d "Class cold (waybar) or colour (i3blocks, i3bar) from this temperature down"
complete -c wundercastctl -s h -l help -d "The usage"
complete -c wundercastctl -s V -l version -d "This program's version"

complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a now -d "The current weather, at once"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a watch -d "The current weather, then one line per change"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a weather -d "The weather anywhere (PLACE or LAT,LON)"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a around -d "3×3 grid around a position"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a alerts -d "The official alerts in force, in full"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a status -d "The daemon's health"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a refresh -d "Fetch the weather again"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a authorize -d "Show, or decide, GPS use"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a version -d "This program's and the daemon's version"
complete -c wundercastctl -n "not __fish_seen_subcommand_from $commands" -a help -d "The usage"

complete -c wundercastctl -n "__fish_seen_subcommand_from authorize; and not __fish_seen_subcommand_from always when-in-use denied ask" -a "always when-in-use denied ask" -d "GPS authorization"
complete -c wundercastctl -n "__fish_seen_subcommand_from watch; and not __fish_seen_subcommand_from every" -a "weather every" -d "watch option"
