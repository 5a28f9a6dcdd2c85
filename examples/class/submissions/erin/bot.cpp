// erin's bot: it does not compile (a missing semicolon, an undeclared name).
// The compiler's messages reach erin through the audit and the JUnit report.
#include <iostream>

int main() {
    int n, m, k, id;
    std::cin >> n >> m >> k >> id
    while (read_state(n, m, k)) {
        std::cout << -1 << std::endl;
    }
}
