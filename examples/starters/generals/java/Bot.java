// A generals starter bot (docs/games/generals.md): it reads every state and makes a legal
// move, from the cell of its own with the most units into a neighbour that is not a
// mountain, or passes when it has no such cell. Copy it and make it clever.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Bot {
    private static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    private static StringTokenizer words = new StringTokenizer("");

    /** The next integer of stdin, or null at its end. */
    private static Integer next() throws IOException {
        while (!words.hasMoreTokens()) {
            String line = in.readLine();
            if (line == null)
                return null;
            words = new StringTokenizer(line);
        }
        return Integer.parseInt(words.nextToken());
    }

    public static void main(String[] args) throws IOException {
        Integer first = next();
        if (first == null)
            return;
        int n = first, m = next(), k = next(), me = next();
        int[] type = new int[n * m], owner = new int[n * m], units = new int[n * m];
        int[] di = {-1, 1, 0, 0}, dj = {0, 0, -1, 1};
        for (Integer flag = next(); flag != null && flag == 1; flag = next()) { // "0" ends the game
            for (int p = 0; p < k; p++) { // every player's total units and cells
                next();
                next();
            }
            for (int c = 0; c < n * m; c++) {
                int visible = next(), t = next();
                type[c] = visible == 1 ? t : 0; // 0: not seen
                owner[c] = units[c] = 0;
                if (visible == 1 && t != 4) {
                    owner[c] = next();
                    units[c] = next();
                }
            }
            int best = -1;
            for (int c = 0; c < n * m; c++)
                if (owner[c] == me && units[c] >= 2 && (best < 0 || units[c] > units[best]))
                    best = c;
            String move = "-1"; // pass
            for (int d = 0; best >= 0 && d < 4; d++) {
                int i = best / m + di[d], j = best % m + dj[d];
                if (i >= 0 && i < n && j >= 0 && j < m && type[i * m + j] != 4 && type[i * m + j] != 0) {
                    move = "1 " + (best / m + 1) + " " + (best % m + 1) + " " + (i + 1) + " " + (j + 1);
                    break;
                }
            }
            System.out.println(move);
            System.out.flush(); // a pipe is fully buffered: without this the judge sees nothing
        }
    }
}
