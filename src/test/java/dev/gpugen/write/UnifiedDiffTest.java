package dev.gpugen.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UnifiedDiffTest {
  @Test
  void identicalInputsGiveNoDiff() {
    assertEquals("", UnifiedDiff.diff("a", "b", List.of("x", "y"), List.of("x", "y")));
  }

  @Test
  void matchesDiffUForASmallChange() {
    List<String> a = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9");
    List<String> b = List.of("1", "2", "3", "4", "five", "6", "7", "8", "9", "10");
    // What GNU diff -u prints for the same input.
    String expected = "--- a\n+++ b\n@@ -2,8 +2,9 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n+10\n";
    assertEquals(expected, UnifiedDiff.diff("a", "b", a, b));
  }

  @Test
  void farApartChangesGetTwoHunks() {
    List<String> a = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      a.add(Integer.toString(i));
    }
    List<String> b = new ArrayList<>(a);
    b.set(0, "one");
    b.set(19, "twenty");
    assertEquals(
        "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+twenty\n",
        UnifiedDiff.diff("a", "b", a, b));
  }

  @Test
  void applyingTheDiffReproducesTheTarget() {
    Random r = new Random(7);
    for (int round = 0; round < 200; round++) {
      List<String> a = randomLines(r);
      List<String> b = randomLines(r);
      String diff = UnifiedDiff.diff("a", "b", a, b);
      assertEquals(b, apply(a, diff), "round " + round + "\n" + diff);
    }
  }

  private static List<String> randomLines(Random r) {
    List<String> out = new ArrayList<>();
    int n = r.nextInt(15);
    for (int i = 0; i < n; i++) {
      out.add(Character.toString('a' + r.nextInt(4)));
    }
    return out;
  }

  /** A minimal patch: walks hunks in order, checking context and removed lines. */
  private static List<String> apply(List<String> a, String diff) {
    List<String> out = new ArrayList<>();
    int pos = 0;
    String[] lines = diff.isEmpty() ? new String[0] : diff.split("\n", -1);
    for (int i = 2; i < lines.length; i++) {
      String l = lines[i];
      if (l.startsWith("@@")) {
        String[] range = l.split(" ")[1].substring(1).split(",");
        int start = Integer.parseInt(range[0]);
        int len = range.length > 1 ? Integer.parseInt(range[1]) : 1;
        int target = len == 0 ? start : start - 1;
        while (pos < target) {
          out.add(a.get(pos++));
        }
      } else if (l.startsWith("+")) {
        out.add(l.substring(1));
      } else if (l.startsWith("-")) {
        assertEquals(a.get(pos++), l.substring(1));
      } else if (l.startsWith(" ")) {
        assertEquals(a.get(pos), l.substring(1));
        out.add(a.get(pos++));
      }
    }
    while (pos < a.size()) {
      out.add(a.get(pos++));
    }
    return out;
  }
}
