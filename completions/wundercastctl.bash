# bash completion for wundercastctl(1): commands, options, formats, icon sets, authorize statuses.
# Installed as $(PREFIX)/share/bash-completion/completions/wundercastctl (bash-completion loads
# it on demand); or `source` it from ~/.bashrc. Needs nothing from bash-completion itself.

_wundercastctl() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]}
    local commands="now watch weather around alerts status refresh authorize version help"
    local options="--socket --format --json --template --short-template --icons --icon-font --timeout --hide-offline --log --colors --hot --cold --help --version"
    local formats="plain json waybar i3blocks i3status-rs polybar i3bar"
    local icons="emoji nerd weather-icons"
    local statuses="always when-in-use denied ask"
    local spans="500ms 1s 2s 5s 15s 30s 60s"
    local IFS=$' \t\n'
    COMPREPLY=()

    # The value of an option: after `--format`, or after `--format=` (bash splits that into
    # `--format` `=` `VALUE` as `=` is in COMP_WORDBREAKS; one word when it is not).
    local option=$prev value=$cur
    if [[ $cur == --*=* ]]; then
        option=${cur%%=*}
        value=${cur#*=}
    elif [[ $cur == = ]]; then
        value=""
    elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
        option=${COMP_WORDS[COMP_CWORD-2]}
    fi
    case $option in
        --socket | -s | --log)
            COMPREPLY=($(compgen -f -- "$value"))
            ;;
        --format | -f)
            COMPREPLY=($(compgen -W "$formats" -- "$value"))
            ;;
        --icons | -i)
            COMPREPLY=($(compgen -W "$icons" -- "$value"))
            ;;
        --colors)
            COMPREPLY=($(compgen -W "none dark light" -- "$value"))
            ;;
        --timeout)
            COMPREPLY=($(compgen -W "$spans" -- "$value"))
            ;;
        --template | -t | --short-template | --icon-font | --hot | --cold)
            return 0
            ;;
    esac
    if [[ $option != "$prev" || $cur == = || ${#COMPREPLY[@]} -gt 0 ]]; then
        return 0
    fi
    case $prev in
        --socket | -s | --format | -f | --icons | -i | --icon-font | --timeout | --log | --colors | --hot | --cold) return 0 ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return 0
    fi

    # The command: the first word that is neither an option nor an option's value.
    local i command="" position=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --socket | -s | --format | -f | --template | -t | --short-template | --icons | -i | --icon-font | --timeout | \
                --log | --colors | --hot | --cold)
                ((i++))
                ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then
                    command=${COMP_WORDS[i]}
                else
                    ((position++))
                fi
                ;;
        esac
    done

    case $command in
        "")
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            ;;
        authorize)
            ((position == 0)) && COMPREPLY=($(compgen -W "$statuses" -- "$cur"))
            ;;
        watch)
            if [[ $prev == every ]]; then
                COMPREPLY=($(compgen -W "$spans" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "weather every" -- "$cur"))
            fi
            ;;
    esac
    return 0
}
complete -F _wundercastctl wundercastctl
