package dev.gpugen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every command the README and docs/ show in a fenced block marked {@code sh runnable}, and
 * compares what it prints with what the block shows, so the docs cannot drift from the product.
 *
 * <p>In such a block a line {@code $ gpugen ARGS} is a command (run in-process from the repository
 * root; only gpugen commands, which read and never write here) and the lines up to the next command
 * are its expected output, stdout then stderr; a line {@code ...} stands for any number of lines. A
 * command shown without output must exit 0. Other blocks ({@code sh}, {@code yaml}, untagged) are
 * illustrations and are not run.
 */
class DocCommandsTest {
  static final String FENCE = "```sh runnable";

  /** One shown command: where it is, its arguments, and the output the doc shows. */
  record Shown(String where, List<String> args, List<String> output) {}

  static List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(Golden.repo().resolve("README.md")));
    try (Stream<Path> s = Files.walk(Golden.repo().resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  static List<Shown> shown(Path doc) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    String name = Golden.repo().relativize(doc).toString();
    List<Shown> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).strip().equals(FENCE)) {
        continue;
      }
      // A block inside a list item is indented; its lines lose that indentation.
      int indent = lines.get(i).indexOf('`');
      int start = i + 1;
      int end = start;
      while (end < lines.size() && !lines.get(end).strip().equals("```")) {
        end++;
      }
      assertTrue(end < lines.size(), name + ":" + (i + 1) + ": a runnable block is never closed");
      List<String> expected = null;
      List<String> args = null;
      String where = null;
      for (int j = start; j < end; j++) {
        String line = lines.get(j);
        int cut = 0;
        while (cut < indent && cut < line.length() && line.charAt(cut) == ' ') {
          cut++;
        }
        line = line.substring(cut);
        if (line.startsWith("$ ")) {
          if (args != null) {
            out.add(new Shown(where, args, trim(expected)));
          }
          where = name + ":" + (j + 1);
          args = words(where, line.substring(2));
          expected = new ArrayList<>();
        } else if (args == null) {
          fail(name + ":" + (j + 1) + ": a runnable block starts with a '$ gpugen ...' line");
        } else {
          expected.add(line);
        }
      }
      if (args != null) {
        out.add(new Shown(where, args, trim(expected)));
      }
      i = end;
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> everyRunnableCommandPrintsWhatTheDocsShow() throws IOException {
    List<Shown> all = new ArrayList<>();
    for (Path doc : docs()) {
      all.addAll(shown(doc));
    }
    assertTrue(all.size() >= 5, "the docs show at least five runnable commands: " + all);
    return all.stream().map(s -> DynamicTest.dynamicTest(s.where(), () -> check(s)));
  }

  private static void check(Shown s) {
    Cli r = Cli.run(s.args().toArray(String[]::new));
    List<String> actual = (r.out() + r.err()).lines().toList();
    if (s.output().isEmpty()) {
      assertEquals(0, r.exit(), s.where() + ": a command shown without output exits 0\n" + r);
      return;
    }
    if (!matches(s.output(), 0, actual, 0)) {
      assertEquals(
          String.join("\n", s.output()),
          String.join("\n", actual),
          s.where() + ": the output the docs show ('...' matches any lines)");
    }
  }

  /** Whether {@code actual} from {@code a} matches {@code expected} from {@code e}. */
  static boolean matches(List<String> expected, int e, List<String> actual, int a) {
    if (e == expected.size()) {
      return a == actual.size();
    }
    if (expected.get(e).equals("...")) {
      for (int skip = a; skip <= actual.size(); skip++) {
        if (matches(expected, e + 1, actual, skip)) {
          return true;
        }
      }
      return false;
    }
    return a < actual.size()
        && expected.get(e).equals(actual.get(a))
        && matches(expected, e + 1, actual, a + 1);
  }

  private static List<String> trim(List<String> lines) {
    List<String> out = new ArrayList<>(lines);
    while (!out.isEmpty() && out.get(out.size() - 1).isBlank()) {
      out.remove(out.size() - 1);
    }
    return out;
  }

  /** Shell words of a gpugen command: plain words and '...' or "..." quoting, no expansions. */
  static List<String> words(String where, String command) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < command.length(); i++) {
      char c = command.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          w.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == ' ') {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else if (c == '#' && !inWord) {
        break;
      } else if ("|&;<>$`*?".indexOf(c) >= 0) {
        fail(where + ": a runnable command is one gpugen call, without " + c);
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(w.toString());
    }
    assertTrue(
        !words.isEmpty() && (words.get(0).equals("gpugen") || words.get(0).equals("./gpugen")),
        where + ": a runnable command starts with gpugen: " + command);
    return words.subList(1, words.size());
  }
}
