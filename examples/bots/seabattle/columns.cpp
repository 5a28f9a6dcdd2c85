/*
 * columns.cpp - a sea battle bot in C++17: the fleet of seabattle.md section 3, then a
 * shot at every cell column by column (x is the column, y the row).
 *
 * Protocol (seabattle.md section 4): 10 board lines, then one shot "x y" per line,
 * reading "miss", "hit" or "sunk" after each; the judge closes stdin at the end.
 * Compile and run it with the cpp profile (containers/cpp.yaml).
 */
#include <array>
#include <iostream>
#include <string>

int main()
{
    const std::array<std::string, 10> board = {"####______", "__________", "###_###___", "__________",
                                               "##_##_##__", "__________", "#_#_#_#___", "__________",
                                               "__________", "__________"};
    for (const auto &line : board)
        std::cout << line << '\n';
    std::cout << std::flush;
    std::string result;
    for (int x = 1; x <= 10; x++)
        for (int y = 1; y <= 10; y++) {
            std::cout << x << ' ' << y << std::endl;
            if (!(std::cin >> result))
                return 0;
        }
    return 0;
}
