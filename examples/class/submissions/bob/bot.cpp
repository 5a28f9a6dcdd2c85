// original_style.cpp - a generals bot written the way the original contest's
// example strategies were: C++ with iostream, reading token by token with
// `cin >>`, answering with `cout << ... << endl` (endl flushes).
//
// Strategy, as in the contest's simple greedy example: collect every move from
// one of our cells (with at least 2 units) into a neighbour that is not ours,
// not a mountain, and holds fewer units than we would send; play one of them
// at random. With none, move a random cell of ours in a random open direction.
// The generator has a fixed seed, so a match always plays the same way.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>
#include <utility>
#include <vector>

using namespace std;

enum CellType { UNKNOWN, EMPTY, CITY, CAPITAL, MOUNTAINS };

struct Cell {
    int visible = 0;
    CellType type = UNKNOWN;
    int owner = 0;
    int army = 0;
};

struct Move {
    int from_x, from_y, to_x, to_y;
};

int n, m, k, id;
vector<vector<Cell>> field;
mt19937 rnd(20240521);
const vector<pair<int, int>> directions = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

bool inside(int x, int y) {
    return 0 <= x && x < n && 0 <= y && y < m;
}

// Returns false when the judge says the game is over for us ("0").
bool read_state() {
    int alive;
    if (!(cin >> alive) || alive == 0) {
        return false;
    }
    for (int p = 0; p < k; ++p) {
        long long army, cells;
        cin >> army >> cells;
    }
    for (int x = 0; x < n; ++x) {
        for (int y = 0; y < m; ++y) {
            Cell& cell = field[x][y];
            int type;
            cin >> cell.visible >> type;
            cell.type = static_cast<CellType>(type);
            cell.owner = -1;
            cell.army = 0;
            if (cell.visible && cell.type != MOUNTAINS) {
                cin >> cell.owner >> cell.army;
            }
        }
    }
    return static_cast<bool>(cin);
}

void print_move(const Move& move) {
    cout << 1 << " " << move.from_x + 1 << " " << move.from_y + 1 << " " << move.to_x + 1 << " "
         << move.to_y + 1 << endl;
}

void random_move() {
    vector<pair<int, int>> mine;
    for (int x = 0; x < n; ++x) {
        for (int y = 0; y < m; ++y) {
            if (field[x][y].owner == id) {
                mine.emplace_back(x, y);
            }
        }
    }
    shuffle(mine.begin(), mine.end(), rnd);
    for (auto [x, y] : mine) {
        vector<pair<int, int>> dirs = directions;
        shuffle(dirs.begin(), dirs.end(), rnd);
        for (auto [dx, dy] : dirs) {
            int nx = x + dx, ny = y + dy;
            // A hidden "0 2" may be a mountain, so only visible cells are used.
            if (inside(nx, ny) && field[nx][ny].visible && field[nx][ny].type != MOUNTAINS) {
                print_move({x, y, nx, ny});
                return;
            }
        }
    }
    cout << -1 << endl;
}

void greedy_move() {
    vector<Move> captures;
    for (int x = 0; x < n; ++x) {
        for (int y = 0; y < m; ++y) {
            const Cell& from = field[x][y];
            if (from.owner != id || from.army < 2) {
                continue;
            }
            for (auto [dx, dy] : directions) {
                int nx = x + dx, ny = y + dy;
                if (!inside(nx, ny)) {
                    continue;
                }
                const Cell& to = field[nx][ny];
                if (to.visible && to.type != MOUNTAINS && to.owner != id && to.army < from.army - 1) {
                    captures.push_back({x, y, nx, ny});
                }
            }
        }
    }
    if (captures.empty()) {
        random_move();
    } else {
        print_move(captures[rnd() % captures.size()]);
    }
}

int main() {
    ios_base::sync_with_stdio(false);
    cin.tie(nullptr);
    cin >> n >> m >> k >> id;
    field.assign(n, vector<Cell>(m));
    while (read_state()) {
        greedy_move();
    }
    return 0;
}
