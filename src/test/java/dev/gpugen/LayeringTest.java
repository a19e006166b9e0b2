package dev.gpugen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/ARCHITECTURE.md's layering, checked on the real import graph of src/main/java: every
 * reference to another gpugen package (import, static import, or fully qualified name in code;
 * comments and string literals do not count) must be one the layer table allows. The plan derives
 * facts from the spec and the compatibility table only, so it imports no renderer, writer or
 * inventory; the writer handles rendered trees and never reads a spec.
 */
class LayeringTest {
  private static final Path MAIN = Path.of("src/main/java/dev/gpugen");

  /** The packages each top-level package may use (besides itself); absent: unrestricted. */
  static final Map<String, Set<String>> ALLOWED =
      Map.ofEntries(
          Map.entry("failure", Set.of()),
          Map.entry("json", Set.of()),
          Map.entry("spec", Set.of("failure")),
          Map.entry("compat", Set.of("failure", "spec")),
          Map.entry("plan", Set.of("failure", "json", "spec", "compat")),
          Map.entry("lint", Set.of("failure", "spec", "compat", "plan")),
          Map.entry("report", Set.of("failure", "json", "spec")),
          Map.entry("inventory", Set.of("failure", "json", "spec", "plan")),
          Map.entry("drift", Set.of("failure", "json", "spec", "compat", "plan", "inventory")),
          Map.entry("render", Set.of("failure", "json", "spec", "compat", "plan", "inventory")),
          Map.entry("write", Set.of("failure", "json", "spec", "render")));

  /**
   * What {@code write} may use of {@code spec}: its I/O-free helpers (bounded file reads, printable
   * text, digests, shell words), never the spec reader, the grammar or the model.
   */
  static final Set<String> WRITE_USES_OF_SPEC =
      Set.of("spec.SafeRead", "spec.Printable", "spec.Sha256", "spec.ShellCommand");

  private static final Pattern REF =
      Pattern.compile("\\bdev\\.gpugen\\.([a-z]+)((?:\\.[a-z]+)*)(?:\\.([A-Z]\\w*))?");
  private static final Pattern COMMENTS_AND_STRINGS =
      Pattern.compile(
          "//[^\n]*|/\\*.*?\\*/|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\n])*\"", Pattern.DOTALL);

  /**
   * The graph: for each source file's top-level package, the gpugen references it makes, as {@code
   * pkg[.sub].Class} (or {@code pkg[.sub]} for a package-only reference), each with the file that
   * makes it.
   */
  static SortedMap<String, SortedMap<String, String>> graph(Path root) throws IOException {
    SortedMap<String, SortedMap<String, String>> out = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> s = Files.walk(root)) {
      files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    for (Path f : files) {
      Path rel = root.relativize(f);
      if (rel.getNameCount() < 2) {
        continue; // Gpugen.java, the library's front door, may use every package
      }
      String from = rel.getName(0).toString();
      String code = COMMENTS_AND_STRINGS.matcher(Files.readString(f)).replaceAll(" ");
      Matcher m = REF.matcher(code);
      while (m.find()) {
        String to = m.group(1) + m.group(2) + (m.group(3) == null ? "" : "." + m.group(3));
        out.computeIfAbsent(from, k -> new TreeMap<>()).putIfAbsent(to, rel.toString());
      }
    }
    return out;
  }

  /** Every reference the layer table forbids, as {@code from -> to (file)}. */
  static List<String> violations(Path root) throws IOException {
    List<String> out = new ArrayList<>();
    graph(root)
        .forEach(
            (from, refs) ->
                refs.forEach(
                    (to, file) -> {
                      String top = to.split("\\.")[0];
                      if (top.equals(from) || !ALLOWED.containsKey(from) && !top.equals("cli")) {
                        return;
                      }
                      boolean ok =
                          !top.equals("cli")
                              && ALLOWED.get(from).contains(top)
                              && !(from.equals("write")
                                  && top.equals("spec")
                                  && !WRITE_USES_OF_SPEC.contains(to));
                      if (!ok && !from.equals("cli")) {
                        out.add(from + " -> " + to + " (" + file + ")");
                      }
                    }));
    return out;
  }

  @Test
  void theRealImportGraphKeepsTheLayers() throws IOException {
    SortedMap<String, SortedMap<String, String>> g = graph(MAIN);
    // The graph is the real one: it sees the plan's use of the spec and the renderer's of the plan.
    assertTrue(g.get("plan").keySet().stream().anyMatch(t -> t.startsWith("spec.")), g::toString);
    assertTrue(g.get("render").containsKey("plan.ClusterPlan"), g::toString);
    SortedSet<String> tops = new TreeSet<>();
    g.keySet().forEach(tops::add);
    tops.remove("cli");
    assertEquals(tops, new TreeSet<>(ALLOWED.keySet()), "every package has a row in the table");
    assertEquals(List.of(), violations(MAIN));
  }

  /** The test is not a formality: a planted plan -> inventory import fails it, by name. */
  @Test
  void aPlantedPlanToInventoryImportFails(@TempDir Path tmp) throws IOException {
    copy(MAIN, tmp);
    Files.writeString(
        tmp.resolve("plan/Planted.java"),
        "package dev.gpugen.plan;\n\n"
            + "import dev.gpugen.inventory.InventoryBuilder;\n\n"
            + "final class Planted {\n  Object o = InventoryBuilder.class;\n}\n");
    assertEquals(
        List.of("plan -> inventory.InventoryBuilder (plan/Planted.java)"), violations(tmp));
  }

  /** A fully qualified use without an import counts too; one in a comment does not. */
  @Test
  void aQualifiedUseInCodeCountsAndOneInACommentDoesNot(@TempDir Path tmp) throws IOException {
    copy(MAIN, tmp);
    Files.writeString(
        tmp.resolve("write/Planted.java"),
        "package dev.gpugen.write;\n\n"
            + "/** Not {@link dev.gpugen.plan.ClusterPlan}. */\n"
            + "final class Planted {\n"
            + "  // dev.gpugen.lint.Linter\n"
            + "  String s = \"dev.gpugen.cli.Main\";\n"
            + "  Object o = dev.gpugen.spec.yaml.SpecReader.class;\n}\n");
    assertEquals(List.of("write -> spec.yaml.SpecReader (write/Planted.java)"), violations(tmp));
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.sorted().toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }
}
