// A bomberman starter bot (docs/games/bomberman.md): it reads every state and walks to a
// free neighbouring cell that no bomb's flame or lava reaches, or waits where it is. It
// never places a bomb. Copy it and make it clever.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Bot {
    private static final int SIZE = 15;
    private static final String[] NAMES = {"UP", "RIGHT", "DOWN", "LEFT"};
    private static final int[] DX = {0, 1, 0, -1}, DY = {-1, 0, 1, 0};
    private static final BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

    private static String[] field = new String[SIZE]; // field[y - 1].charAt(x - 1): '.', '#' or '+'
    private static boolean[][] unsafe, bombAt;        // by [y][x]: reached by a flame or lava; a bomb
    private static int tick, me, myX, myY;

    private static boolean freeCell(int x, int y) {
        return x >= 1 && x <= SIZE && y >= 1 && y <= SIZE && field[y - 1].charAt(x - 1) == '.';
    }

    private static int[] numbers(String line) {
        String[] words = line.trim().split("\\s+");
        int[] out = new int[words.length];
        for (int i = 0; i < words.length; i++)
            out[i] = words[i].matches("-?\\d+") ? Integer.parseInt(words[i]) : 0;
        return out;
    }

    private static void markBomb(int x, int y, int radius) {
        bombAt[y][x] = unsafe[y][x] = true;
        for (int d = 0; d < 4; d++)
            for (int step = 1; step <= radius && freeCell(x + DX[d] * step, y + DY[d] * step); step++)
                unsafe[y + DY[d] * step][x + DX[d] * step] = true;
    }

    /** Reads one state up to END; false when the bot gets OVER or its input ends. */
    private static boolean readState() throws IOException {
        unsafe = new boolean[SIZE + 2][SIZE + 2];
        bombAt = new boolean[SIZE + 2][SIZE + 2];
        for (String line; (line = in.readLine()) != null;) {
            String[] words = line.trim().split("\\s+");
            String key = words[0];
            int n = words.length > 1 ? Integer.parseInt(words[1]) : 0;
            if (key.equals("OVER")) return false;
            if (key.equals("END")) return true;
            if (key.equals("TICK")) tick = n;
            else if (key.equals("YOU")) me = n;
            else if (key.equals("MAP"))
                for (int y = 0; y < SIZE; y++) field[y] = in.readLine();
            else if (key.equals("PLAYERS"))
                for (int i = 0; i < n; i++) {
                    int[] p = numbers(in.readLine());
                    if (p[0] == me) { myX = p[1]; myY = p[2]; }
                }
            else if (key.equals("BOMBS"))
                for (int i = 0; i < n; i++) {
                    int[] b = numbers(in.readLine());
                    markBomb(b[0], b[1], b[3]);
                }
            else if (key.equals("LAVA"))
                for (int i = 0; i < n; i++) {
                    int[] l = numbers(in.readLine());
                    unsafe[l[1]][l[0]] = true;
                }
            else // CONFIG, BONUSES: a count, then lines this bot does not need
                for (int i = 0; i < n; i++) in.readLine();
        }
        return false;
    }

    private static String choose() {
        for (int i = 0; i < 4; i++) {
            int d = (tick + i) % 4; // a different first direction each tick: it wanders
            int x = myX + DX[d], y = myY + DY[d];
            if (freeCell(x, y) && !bombAt[y][x] && !unsafe[y][x]) return NAMES[d];
        }
        return "WAIT";
    }

    public static void main(String[] args) throws IOException {
        while (readState()) {
            System.out.println(choose());
            System.out.flush(); // a pipe is fully buffered
        }
    }
}
