package dev.gpugen;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gpugen.write.UnifiedDiff;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Golden-file comparison: whole files and whole trees, with a unified diff on failure. Run with
 * {@code -Dgpugen.updateGolden=true} to rewrite the expected files instead.
 */
public final class Golden {
  private Golden() {}

  public static boolean updating() {
    return Boolean.parseBoolean(System.getProperty("gpugen.updateGolden", "false"));
  }

  /** The repository root (tests run with the module directory as working directory). */
  public static Path repo() {
    return Path.of("").toAbsolutePath();
  }

  public static void assertFile(Path expected, String actual) {
    try {
      if (updating()) {
        Files.createDirectories(expected.getParent());
        Files.writeString(expected, actual, StandardCharsets.UTF_8);
        return;
      }
      if (!Files.exists(expected)) {
        fail(
            "missing golden file " + expected + "; run with -Dgpugen.updateGolden=true\n" + actual);
      }
      String want = Files.readString(expected, StandardCharsets.UTF_8);
      if (!want.equals(actual)) {
        fail(
            "differs from golden "
                + expected
                + " (run with -Dgpugen.updateGolden=true to accept)\n"
                + UnifiedDiff.diff("expected", "actual", lines(want), lines(actual)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Compares a whole tree: missing, extra and changed files are all reported at once. */
  public static void assertTree(Path expectedDir, Map<String, byte[]> actual) {
    try {
      if (updating()) {
        deleteTree(expectedDir);
        for (Map.Entry<String, byte[]> e : actual.entrySet()) {
          Path p = expectedDir.resolve(e.getKey());
          Files.createDirectories(p.getParent());
          Files.write(p, e.getValue());
        }
        return;
      }
      SortedMap<String, byte[]> want = read(expectedDir);
      StringBuilder problems = new StringBuilder();
      for (String path : new TreeSet<>(want.keySet())) {
        if (!actual.containsKey(path)) {
          problems.append("missing: ").append(path).append('\n');
        } else if (!Arrays.equals(want.get(path), actual.get(path))) {
          problems
              .append("changed: ")
              .append(path)
              .append('\n')
              .append(
                  UnifiedDiff.diff(
                      "expected/" + path,
                      "actual/" + path,
                      lines(new String(want.get(path), StandardCharsets.UTF_8)),
                      lines(new String(actual.get(path), StandardCharsets.UTF_8))));
        }
      }
      for (String path : new TreeSet<>(actual.keySet())) {
        if (!want.containsKey(path)) {
          problems.append("extra: ").append(path).append('\n');
        }
      }
      if (problems.length() > 0) {
        fail(
            "tree differs from golden "
                + expectedDir
                + " (run with -Dgpugen.updateGolden=true to accept)\n"
                + problems);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static SortedMap<String, byte[]> read(Path dir) throws IOException {
    SortedMap<String, byte[]> out = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
      }
    }
    return out;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  public static List<String> lines(String s) {
    if (s.isEmpty()) {
      return List.of();
    }
    return Arrays.asList((s.endsWith("\n") ? s.substring(0, s.length() - 1) : s).split("\n", -1));
  }
}
