// A bomberman starter bot (docs/games/bomberman.md): it reads every state and walks to a
// free neighbouring cell that no bomb's flame or lava reaches, or waits where it is. It
// never places a bomb. Copy it and make it clever.
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

const char *const kNames[4] = {"UP", "RIGHT", "DOWN", "LEFT"};
const int kDx[4] = {0, 1, 0, -1}, kDy[4] = {-1, 0, 1, 0};

struct State {
    int tick = 0, me = 0, x = 0, y = 0;
    std::vector<std::string> field;            // field[y - 1][x - 1]: '.', '#' or '+'
    std::set<std::pair<int, int>> bombs, unsafe; // (x, y)

    bool free_cell(int cx, int cy) const {
        return cy >= 1 && cy <= (int)field.size() && cx >= 1 && cx <= (int)field[cy - 1].size() &&
               field[cy - 1][cx - 1] == '.';
    }
};

// The next n lines, each split into words.
std::vector<std::vector<std::string>> items(int n) {
    std::vector<std::vector<std::string>> out;
    std::string line;
    while (n-- > 0 && std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::vector<std::string> item;
        for (std::string w; words >> w;) item.push_back(w);
        out.push_back(item);
    }
    return out;
}

// One state up to END; false when the bot gets OVER or its input ends.
bool read_state(State &s) {
    std::vector<std::vector<std::string>> bombs, lava;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string key;
        int n = 0;
        words >> key >> n;
        if (key == "OVER") return false;
        if (key == "END") break;
        if (key == "TICK") s.tick = n;
        else if (key == "YOU") s.me = n;
        else if (key == "CONFIG" || key == "BONUSES") items(n);
        else if (key == "MAP") {
            s.field.clear();
            for (int row = 0; row < 15 && std::getline(std::cin, line); row++) s.field.push_back(line);
        } else if (key == "PLAYERS") {
            for (auto &p : items(n))
                if (p.size() >= 3 && std::stoi(p[0]) == s.me) s.x = std::stoi(p[1]), s.y = std::stoi(p[2]);
        } else if (key == "BOMBS") bombs = items(n);
        else if (key == "LAVA") lava = items(n);
    }
    if (!std::cin) return false;
    s.bombs.clear();
    s.unsafe.clear();
    for (auto &b : bombs) {
        int bx = std::stoi(b.at(0)), by = std::stoi(b.at(1)), radius = std::stoi(b.at(3));
        s.bombs.insert({bx, by});
        s.unsafe.insert({bx, by});
        for (int d = 0; d < 4; d++)
            for (int step = 1; step <= radius && s.free_cell(bx + kDx[d] * step, by + kDy[d] * step); step++)
                s.unsafe.insert({bx + kDx[d] * step, by + kDy[d] * step});
    }
    for (auto &l : lava) s.unsafe.insert({std::stoi(l.at(0)), std::stoi(l.at(1))});
    return true;
}

std::string choose(const State &s) {
    for (int i = 0; i < 4; i++) {
        int d = (s.tick + i) % 4;  // a different first direction each tick: it wanders
        std::pair<int, int> to{s.x + kDx[d], s.y + kDy[d]};
        if (s.free_cell(to.first, to.second) && !s.bombs.count(to) && !s.unsafe.count(to)) return kNames[d];
    }
    return "WAIT";
}

}  // namespace

int main() {
    State s;
    while (read_state(s)) std::cout << choose(s) << std::endl;  // endl flushes: a pipe is fully buffered
    return 0;
}
