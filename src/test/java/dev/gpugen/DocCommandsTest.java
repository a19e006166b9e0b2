package dev.gpugen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every command the docs show in a fenced block marked {@code sh runnable} (README,
 * CONTRIBUTING, docs/, the test-harness guide and every example's README), and compares what it
 * prints with what the block shows, so the docs cannot drift from the product. Beside the commands,
 * every repository path the docs name must exist, and no doc pins gpugen by a release tag it does
 * not have.
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
    Path repo = Golden.repo();
    List<Path> docs =
        new ArrayList<>(
            List.of(
                repo.resolve("README.md"),
                repo.resolve("CONTRIBUTING.md"),
                repo.resolve("scripts/README-test-harness.md")));
    try (Stream<Path> s = Files.walk(repo.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    try (Stream<Path> s = Files.list(repo.resolve("examples"))) {
      s.map(d -> d.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(docs::add);
    }
    return docs;
  }

  /** A backticked token or a Markdown link target. */
  private static final Pattern NAMED = Pattern.compile("`([^`\\s]+)`|\\]\\(([^)\\s]+)\\)");

  /**
   * Every repository path a doc names exists: a backticked path that starts with one of the
   * repository's top-level folders, and every relative Markdown link (from the doc's folder).
   * Placeholders ({@code <name>}, {@code *}, {@code {pool}}) are not paths.
   */
  @Test
  void everyRepositoryPathTheDocsNameExists() throws IOException {
    Path repo = Golden.repo();
    List<String> tops = new ArrayList<>();
    try (Stream<Path> s = Files.list(repo)) {
      s.filter(Files::isDirectory)
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.equals("target") && !n.equals(".git") && !n.equals(".mvn"))
          .forEach(tops::add);
    }
    List<String> missing = new ArrayList<>();
    for (Path doc : docs()) {
      List<String> lines = Files.readAllLines(doc);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = NAMED.matcher(lines.get(i));
        while (m.find()) {
          boolean link = m.group(2) != null;
          String target = link ? m.group(2) : m.group(1);
          target = target.replaceAll("#.*$", "").replaceAll("[.,:;]+$", "");
          if (target.isEmpty()
              || (!link && target.startsWith("/"))
              || target.matches("^[a-z]+:.*")
              || target.matches(".*[<>*{}$|\\[\\]…].*")
              || target.contains("...")) {
            continue;
          }
          Path resolved;
          if (link) {
            resolved = doc.getParent().resolve(target).normalize();
          } else {
            String first = target.split("/")[0];
            if (!target.contains("/") || !tops.contains(first)) {
              continue;
            }
            resolved = repo.resolve(target.replaceAll(":[0-9]+$", ""));
          }
          if (!Files.exists(resolved)) {
            missing.add(repo.relativize(doc) + ":" + (i + 1) + ": " + target);
          }
        }
      }
    }
    assertEquals(List.of(), missing, "paths the docs name that do not exist");
  }

  /** A Markdown link with an anchor: the file (empty for the doc itself) and the anchor. */
  private static final Pattern ANCHORED = Pattern.compile("\\]\\(([^)\\s#]*\\.md)?#([^)\\s]+)\\)");

  /**
   * Every {@code file.md#anchor} link (and {@code #anchor} within a doc) leads to a heading of that
   * file, by GitHub's rules: the heading's text (link text kept, code marks dropped) lowercased,
   * every character but letters, digits, spaces, '-' and '_' dropped, spaces turned into '-', and a
   * second heading of the same slug suffixed -1, -2.
   */
  @Test
  void everyAnchorTheDocsLinkIsAHeadingOfItsFile() throws IOException {
    List<String> broken = new ArrayList<>();
    Path repo = Golden.repo();
    for (Path doc : docs()) {
      List<String> lines = Files.readAllLines(doc);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = ANCHORED.matcher(lines.get(i));
        while (m.find()) {
          Path target = m.group(1) == null ? doc : doc.getParent().resolve(m.group(1)).normalize();
          if (!Files.isRegularFile(target) || !anchors(target).contains(m.group(2))) {
            broken.add(repo.relativize(doc) + ":" + (i + 1) + ": " + m.group(0));
          }
        }
      }
    }
    assertEquals(List.of(), broken, "anchors that are no heading of their file");
  }

  /** The anchors GitHub gives the headings of a Markdown file (outside fenced blocks). */
  static Set<String> anchors(Path doc) throws IOException {
    Set<String> slugs = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(doc)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      }
      if (fenced || !line.matches("#{1,6} .*")) {
        continue;
      }
      String slug = slug(line.replaceFirst("^#+ ", ""));
      int n = seen.merge(slug, 1, Integer::sum);
      slugs.add(n == 1 ? slug : slug + "-" + (n - 1));
    }
    return slugs;
  }

  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").strip();
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
  }

  @Test
  void theSlugsFollowGithubsRules() {
    assertEquals(
        "kubeadm-distribution-kubeadm-static-and-aws",
        slug("kubeadm (`distribution: kubeadm`, static and AWS)"));
    assertEquals("plays-0305-and-the-kubernetes-api", slug("Plays 03–05 and the Kubernetes API"));
    assertEquals("gpugen-up-the-waits", slug("`gpugen up`: the waits"));
  }

  /** docs/templates.md shows the tag syntax the templates use: {@code <#if>}, not {@code [#if]}. */
  @Test
  void theTemplateSyntaxTheDocsShowIsTheTemplatesOwn() throws IOException {
    String doc = Files.readString(Golden.repo().resolve("docs/templates.md"));
    assertTrue(doc.contains("`<#if …>…</#if>`"), "docs/templates.md shows <#if>");
    assertFalse(doc.contains("[#if"), "docs/templates.md shows no [#if]");
    List<String> square = new ArrayList<>();
    try (Stream<Path> s = Files.walk(Golden.repo().resolve("templates"))) {
      for (Path t : s.filter(p -> p.toString().endsWith(".ftl")).toList()) {
        String text = Files.readString(t);
        if (text.contains("[#if") || text.contains("[#list")) {
          square.add(t.toString());
        }
      }
    }
    assertEquals(List.of(), square, "templates with square-bracket tags");
  }

  /**
   * gpugen has no release tags: a doc that pins {@code rev: v0.1.0} or a schema URL at a tag sends
   * a newcomer to something that does not exist. Pin a commit.
   */
  @Test
  void noDocPinsGpugenByATagItDoesNotHave() throws IOException {
    Pattern tag = Pattern.compile("rev: v[0-9]|/gpugen/v[0-9]+\\.[0-9]+");
    List<String> found = new ArrayList<>();
    for (Path doc : docs()) {
      List<String> lines = Files.readAllLines(doc);
      for (int i = 0; i < lines.size(); i++) {
        if (tag.matcher(lines.get(i)).find()) {
          found.add(Golden.repo().relativize(doc) + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
      }
    }
    assertEquals(List.of(), found, "a release tag gpugen does not have");
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
