/*
 * Turtle.java - turtle.c in Java: puts all its armies on its strongest territory
 * and never attacks.
 *
 * Per-turn mode (warlight.md section 4): argv is "ID INCOME TERRITORIES BONUSES [X]"
 * and the answer two lines, the deployment "r,c,a" and the commands (none here).
 * Persistent mode (section 9): the same words, one line a turn on stdin, until END.
 * Compile and run it with the java profile (containers/java.yaml).
 */
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Turtle {
    static String play(String[] words) {
        if (words.length < 2) return "\n\n";
        int me = Integer.parseInt(words[0]);
        long income = Long.parseLong(words[1]);
        String[] best = null;
        for (int i = 2; i < words.length; i++) {
            String[] f = words[i].split(",");
            if (f.length == 5 && Integer.parseInt(f[3]) == me
                && (best == null || Long.parseLong(f[4]) > Long.parseLong(best[4])))
                best = f;
        }
        return best == null ? "\n\n" : best[0] + "," + best[1] + "," + income + "\n\n";
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0) {
            System.out.print(play(String.join(" ", args).trim().split(" +")));
            System.out.flush();
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null && !line.startsWith("END");) {
            System.out.print(play(line.trim().split(" +")));
            System.out.flush();
        }
    }
}
