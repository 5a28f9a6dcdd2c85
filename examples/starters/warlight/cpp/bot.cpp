// A warlight starter bot (docs/games/warlight.md): it reads its turn's state and answers
// with a legal deployment, all its income on its strongest territory, and one attack from
// there on the weakest territory beside it that it does not own, when it outnumbers it.
// Copy it and make it clever.
//
// Per-turn mode: the state is argv, "ID INCOME TERRITORIES BONUSES [X]", a new process each
// turn. Persistent mode: the same words, one line a turn on stdin, until END.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

struct Territory {
    long row, col, bonus, owner, armies; // rows and columns from 0
};

// The two answer lines for one turn's words.
static std::string play(const std::vector<std::string> &words)
{
    if (words.size() < 2)
        return "\n\n";
    long me = std::stol(words[0]), income = std::stol(words[1]);
    std::vector<Territory> list;
    for (size_t i = 2; i < words.size(); i++) {
        Territory t;
        if (std::sscanf(words[i].c_str(), "%ld,%ld,%ld,%ld,%ld", &t.row, &t.col, &t.bonus, &t.owner, &t.armies) == 5)
            list.push_back(t);
    }
    const Territory *best = nullptr, *target = nullptr;
    for (const Territory &t : list)
        if (t.owner == me && (!best || t.armies > best->armies))
            best = &t;
    if (!best)
        return "\n\n";
    long armies = best->armies + income;
    for (const Territory &t : list) // neighbours: the 8 territories around, diagonals too
        if (t.owner != me && std::labs(t.row - best->row) <= 1 && std::labs(t.col - best->col) <= 1 &&
            (!target || t.armies < target->armies))
            target = &t;
    std::ostringstream out;
    out << best->row << ',' << best->col << ',' << income << '\n';
    if (target && armies - 1 > target->armies)
        out << best->row << ',' << best->col << ',' << target->row << ',' << target->col << ',' << armies - 1;
    out << '\n';
    return out.str();
}

static std::vector<std::string> split(const std::string &text)
{
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        std::string all;
        for (int i = 1; i < argc; i++)
            all += std::string(argv[i]) + ' ';
        std::cout << play(split(all)) << std::flush;
        return 0;
    }
    for (std::string line; std::getline(std::cin, line) && line.rfind("END", 0) != 0;)
        std::cout << play(split(line)) << std::flush; // a pipe is fully buffered: flush every answer
    return 0;
}
