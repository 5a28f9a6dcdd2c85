"""A syntax error on a line that is a GitHub Actions workflow command: the
interpreter quotes the line (indented, which the runner of a workflow trims) in its
message, with an escape byte and a "##[" command. The judge's printed
messages must neutralize all of them (the runner also checks `judge compile`
without --json)."""
::stop-commands::pwned ##[error]PWNED [2J
