import Foundation

/// Shell completion scripts, written from the option table so they never fall out of step.
enum Completion {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        default: fish
        }
    }

    /// Options whose value is a file name, a shell name, or free text.
    private static func valueKind(_ option: CommandLineOptions.Option) -> String? {
        switch option.value {
        case "FILE": "file"
        case "SHELL": "shell"
        case nil: nil
        default: "text"
        }
    }

    private static var bash: String {
        let all = CommandLineOptions.table.flatMap(\.names).joined(separator: " ")
        let withValue = CommandLineOptions.table.filter { $0.value != nil }
        let files = withValue.filter { valueKind($0) == "file" }.flatMap(\.names).joined(separator: "|")
        let others = withValue.filter { valueKind($0) == "text" }.flatMap(\.names).joined(separator: "|")
        return """
            # bash completion for imageprobe; load with: source <(imageprobe --completion bash)
            _imageprobe() {
                local current previous
                current="${COMP_WORDS[COMP_CWORD]}"
                previous="${COMP_WORDS[COMP_CWORD-1]}"
                case "$previous" in
                    \(files)) COMPREPLY=($(compgen -f -- "$current")); return ;;
                    --completion) COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$current")); return ;;
                    \(others)) COMPREPLY=(); return ;;
                esac
                if [[ "$current" == -* ]]; then
                    COMPREPLY=($(compgen -W "\(all)" -- "$current"))
                else
                    COMPREPLY=($(compgen -f -- "$current"))
                fi
            }
            complete -o filenames -F _imageprobe imageprobe
            """
    }

    /// zsh `_arguments` wants brackets and colons in descriptions escaped.
    private static func zshQuoted(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "[", "]", ":", "\\": out += "\\" + String(character)
            case "'": out += "'\\''"
            default: out.append(character)
            }
        }
        return out
    }

    private static var zsh: String {
        var specs: [String] = []
        for option in CommandLineOptions.table {
            let help = zshQuoted(option.help)
            let action: String
            switch valueKind(option) {
            case "file": action = ":\(option.value!.lowercased()):_files"
            case "shell": action = ":shell:(\(shells.joined(separator: " ")))"
            case "text": action = ":\(option.value!.lowercased()): "
            default: action = ""
            }
            let exclusive = option.names.count > 1 ? "(\(option.names.joined(separator: " ")))" : ""
            let names = option.names.count > 1 ? "{\(option.names.joined(separator: ","))}" : option.names[0]
            specs.append("    '\(exclusive)'\(names)'[\(help)]\(action)' \\")
        }
        return """
            #compdef imageprobe
            # zsh completion for imageprobe; save as _imageprobe in a directory on $fpath
            _arguments -s \\
            \(specs.joined(separator: "\n"))
                '*:path:_files'
            """
    }

    private static var fish: String {
        var lines = ["# fish completion for imageprobe; save as ~/.config/fish/completions/imageprobe.fish"]
        for option in CommandLineOptions.table {
            var line = "complete -c imageprobe"
            for name in option.names {
                line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
            }
            switch valueKind(option) {
            case "file": line += " -r -F"
            case "shell": line += " -x -a '\(shells.joined(separator: " "))'"
            case "text": line += " -x"
            default: break
            }
            line += " -d '\(option.help.replacingOccurrences(of: "'", with: "\\'"))'"
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
