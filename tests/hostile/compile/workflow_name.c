/* A source file named "::stop-commands::x.c" (the runner renames it): gcc's
 * diagnostics start with the file name, so every one of them would be a GitHub
 * Actions workflow command in the CI log. Refused before any compiler runs. */
int main(void) { return undeclared; }
