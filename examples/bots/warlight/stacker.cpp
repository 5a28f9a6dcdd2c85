/*
 * stacker.cpp - a warlight bot in C++17: like turtle.c, it puts all its armies on its
 * strongest territory and never attacks.
 *
 * Per-turn mode (warlight.md section 4): argv is "ID INCOME TERRITORIES BONUSES [X]"
 * and the answer two lines, the deployment "r,c,a" and the commands (none here).
 * Persistent mode (section 9): the same words, one line a turn on stdin, until END.
 * Compile and run it with the cpp profile (containers/cpp.yaml).
 */
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static std::string play(const std::string &line)
{
    std::istringstream in(line);
    long long me, income;
    if (!(in >> me >> income))
        return "\n\n";
    long long best_armies = -1;
    std::string best;
    for (std::string word; in >> word;) {
        if (std::count(word.begin(), word.end(), ',') != 4) /* a bonus, or the round's X */
            continue;
        std::vector<long long> f;
        std::istringstream fields(word);
        for (std::string part; std::getline(fields, part, ',');)
            f.push_back(std::stoll(part));
        if (f.size() == 5 && f[3] == me && f[4] > best_armies) {
            best_armies = f[4];
            best = std::to_string(f[0]) + "," + std::to_string(f[1]);
        }
    }
    return best.empty() ? "\n\n" : best + "," + std::to_string(income) + "\n\n";
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        std::string line;
        for (int a = 1; a < argc; a++)
            line += std::string(argv[a]) + " ";
        std::cout << play(line) << std::flush;
        return 0;
    }
    for (std::string line; std::getline(std::cin, line) && line.rfind("END", 0) != 0;)
        std::cout << play(line) << std::flush;
    return 0;
}
