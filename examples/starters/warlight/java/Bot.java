// A warlight starter bot (docs/games/warlight.md): it reads its turn's state and answers
// with a legal deployment, all its income on its strongest territory, and one attack from
// there on the weakest territory beside it that it does not own, when it outnumbers it.
// Copy it and make it clever.
//
// Per-turn mode: the state is argv, "ID INCOME TERRITORIES BONUSES [X]", a new process each
// turn. Persistent mode: the same words, one line a turn on stdin, until END.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    /** The two answer lines for one turn's words. */
    static String play(String[] words) {
        if (words.length < 2)
            return "\n\n";
        long me = Long.parseLong(words[0]), income = Long.parseLong(words[1]);
        List<long[]> list = new ArrayList<>(); // row, col, bonus, owner, armies; rows and columns from 0
        for (int i = 2; i < words.length; i++) {
            String[] f = words[i].split(",");
            if (f.length == 5) {
                long[] t = new long[5];
                for (int k = 0; k < 5; k++)
                    t[k] = Long.parseLong(f[k]);
                list.add(t);
            }
        }
        long[] best = null, target = null;
        for (long[] t : list)
            if (t[3] == me && (best == null || t[4] > best[4]))
                best = t;
        if (best == null)
            return "\n\n";
        long armies = best[4] + income;
        for (long[] t : list) // neighbours: the 8 territories around, diagonals too
            if (t[3] != me && Math.abs(t[0] - best[0]) <= 1 && Math.abs(t[1] - best[1]) <= 1
                && (target == null || t[4] < target[4]))
                target = t;
        String answer = best[0] + "," + best[1] + "," + income + "\n";
        if (target != null && armies - 1 > target[4])
            answer += best[0] + "," + best[1] + "," + target[0] + "," + target[1] + "," + (armies - 1);
        return answer + "\n";
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0) {
            System.out.print(play(String.join(" ", args).trim().split("\\s+")));
            System.out.flush();
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line = in.readLine(); line != null && !line.startsWith("END"); line = in.readLine()) {
            System.out.print(play(line.trim().split("\\s+")));
            System.out.flush(); // a pipe is fully buffered: without this the judge sees nothing
        }
    }
}
