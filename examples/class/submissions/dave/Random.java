/*
 * Random.java - random.c in Java: moves a random owned cell in a random open
 * direction, sending all but one unit (opt 1) or half (opt 2) at random.
 *
 * The random numbers come from the same xorshift64* as random.c, seeded from our
 * player id, so it plays exactly as random.c does. Protocol: generals.md section 5.
 * Compile and run it with the java profile (containers/java.yaml).
 */
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Random {
    static final int CITY = 2, MOUNTAIN = 4;
    static int n, m, k, id;
    static int[] visible, type, owner;
    static long state;

    static int below(int bound) {
        state ^= state >>> 12;
        state ^= state << 25;
        state ^= state >>> 27;
        return (int) Long.remainderUnsigned(state * 0x2545F4914F6CDD1DL, bound);
    }

    static int[] ints(BufferedReader in) throws IOException {
        String line = in.readLine();
        if (line == null) return null;
        String[] words = line.trim().split(" +");
        int[] out = new int[words.length];
        for (int i = 0; i < words.length; i++) out[i] = Integer.parseInt(words[i]);
        return out;
    }

    static boolean readState(BufferedReader in) throws IOException {
        int[] alive = ints(in);
        if (alive == null || alive[0] == 0) return false;
        for (int p = 0; p < k; p++) ints(in);
        for (int c = 0; c < n * m; c++) {
            int[] w = ints(in);
            if (w == null) return false;
            visible[c] = w[0];
            type[c] = w[1];
            owner[c] = w.length == 4 ? w[2] : -1;
        }
        return true;
    }

    static boolean open(int i, int j) {
        if (i < 1 || i > n || j < 1 || j > m) return false;
        int c = (i - 1) * m + (j - 1);
        return visible[c] == 1 ? type[c] != MOUNTAIN : type[c] != CITY;
    }

    static String move() {
        int[] di = {-1, 1, 0, 0}, dj = {0, 0, -1, 1};
        int owned = 0;
        for (int c = 0; c < n * m; c++) if (owner[c] == id) owned++;
        for (int tries = 0; owned > 0 && tries < 64; tries++) {
            int pick = below(owned), c = 0;
            for (;; c++) if (owner[c] == id && pick-- == 0) break;
            int i = c / m + 1, j = c % m + 1, d = below(4);
            if (open(i + di[d], j + dj[d]))
                return (1 + below(2)) + " " + i + " " + j + " " + (i + di[d]) + " " + (j + dj[d]);
        }
        return "-1";
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int[] head = ints(in);
        if (head == null) return;
        n = head[0]; m = head[1]; k = head[2]; id = head[3];
        visible = new int[n * m]; type = new int[n * m]; owner = new int[n * m];
        state = 0x9E3779B97F4A7C15L ^ ((long) id * 0xD1B54A32D192ED03L);
        while (readState(in)) {
            System.out.println(move());
            System.out.flush();
        }
    }
}
