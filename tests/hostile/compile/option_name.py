"""A source file named -c.py (the runner renames it): it would be an option
to the interpreter; refused before anything runs."""
print(-1)
