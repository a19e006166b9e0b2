package dev.gpugen.write;

import dev.gpugen.spec.Printable;
import java.util.ArrayList;
import java.util.List;

/** A unified diff (as {@code diff -u} prints it), from a Myers shortest edit script. */
public final class UnifiedDiff {
  private static final int CONTEXT = 3;

  private UnifiedDiff() {}

  private record Edit(char op, int a, int b) {}

  public static String diff(String nameA, String nameB, List<String> a, List<String> b) {
    List<Edit> script = edits(a, b);
    if (script.stream().allMatch(e -> e.op == ' ')) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append("--- ")
        .append(Printable.text(nameA))
        .append('\n')
        .append("+++ ")
        .append(Printable.text(nameB))
        .append('\n');
    int i = 0;
    while (i < script.size()) {
      if (script.get(i).op == ' ') {
        i++;
        continue;
      }
      int start = Math.max(0, i - CONTEXT);
      int end = i;
      // Extend the hunk while changes are within 2*CONTEXT lines of each other.
      int lastChange = i;
      while (end < script.size()) {
        if (script.get(end).op != ' ') {
          lastChange = end;
        } else if (end - lastChange > 2 * CONTEXT) {
          break;
        }
        end++;
      }
      end = Math.min(script.size(), lastChange + CONTEXT + 1);
      appendHunk(out, script.subList(start, end), a, b);
      i = end;
    }
    return out.toString();
  }

  private static void appendHunk(
      StringBuilder out, List<Edit> hunk, List<String> a, List<String> b) {
    int aStart = -1;
    int bStart = -1;
    int aLen = 0;
    int bLen = 0;
    for (Edit e : hunk) {
      if (e.op != '+') {
        if (aStart < 0) {
          aStart = e.a;
        }
        aLen++;
      }
      if (e.op != '-') {
        if (bStart < 0) {
          bStart = e.b;
        }
        bLen++;
      }
    }
    out.append("@@ -")
        .append(range(aStart, aLen, hunk.get(0).a))
        .append(" +")
        .append(range(bStart, bLen, hunk.get(0).b))
        .append(" @@\n");
    for (Edit e : hunk) {
      String line = e.op == '+' ? b.get(e.b) : a.get(e.a);
      // A line of a file on disk is outside text: a hand edit could hold escape sequences.
      out.append(e.op).append(Printable.text(line)).append('\n');
    }
  }

  private static String range(int start, int len, int fallback) {
    int first = len == 0 ? fallback : start + 1;
    return len == 1 ? Integer.toString(first) : first + "," + len;
  }

  /** Myers' O((N+M)D) algorithm, keeping each round's frontier to walk the path back. */
  private static List<Edit> edits(List<String> a, List<String> b) {
    int n = a.size();
    int m = b.size();
    int max = n + m;
    int offset = max + 1;
    int[] v = new int[2 * max + 3];
    List<int[]> trace = new ArrayList<>();
    int found = -1;
    for (int d = 0; d <= max && found < 0; d++) {
      trace.add(v.clone());
      for (int k = -d; k <= d; k += 2) {
        int x =
            (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                ? v[offset + k + 1]
                : v[offset + k - 1] + 1;
        int y = x - k;
        while (x < n && y < m && a.get(x).equals(b.get(y))) {
          x++;
          y++;
        }
        v[offset + k] = x;
        if (x >= n && y >= m) {
          found = d;
          break;
        }
      }
    }
    List<Edit> out = new ArrayList<>();
    int x = n;
    int y = m;
    for (int d = found; d >= 0; d--) {
      int[] vd = trace.get(d);
      int k = x - y;
      int prevK = (k == -d || (k != d && vd[offset + k - 1] < vd[offset + k + 1])) ? k + 1 : k - 1;
      int prevX = d == 0 ? 0 : vd[offset + prevK];
      int prevY = d == 0 ? 0 : prevX - prevK;
      while (x > prevX && y > prevY) {
        out.add(new Edit(' ', --x, --y));
      }
      if (d > 0) {
        if (x == prevX) {
          out.add(new Edit('+', x, --y));
        } else {
          out.add(new Edit('-', --x, y));
        }
      }
    }
    java.util.Collections.reverse(out);
    return out;
  }
}
