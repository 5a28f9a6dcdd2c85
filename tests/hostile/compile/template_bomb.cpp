// A template bomb: every instantiation asks for two more, distinct ones (M
// stays below a prime so nothing overflows), about 2^30 in all unless the
// compiler is stopped; the depth, 30, stays under g++'s limit of 900.
template <int N, int M> struct Bomb {
    static const long value = Bomb<N - 1, (2 * M) % 1000003>::value + Bomb<N - 1, (2 * M + 1) % 1000003>::value;
};
template <int M> struct Bomb<0, M> {
    static const long value = M;
};
int main() { return (int)Bomb<30, 1>::value; }
