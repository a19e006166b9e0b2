package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broken and hostile specs: each gives exit 1 and its expected diagnostic with a position, never a
 * stack trace, a hang or an out-of-memory. (The timeout is a hang guard, not a speed claim; speed
 * is measured by bench/hostile.sh.)
 */
@Timeout(60)
class HostileSpecTest {
  static final Path CORPUS = Path.of("src/test/resources/hostile");
  static final Pattern POSITIONED =
      Pattern.compile("(?m)^\\S+:\\d+:\\d+: error\\[[a-z0-9-]+\\]: .+$");

  @TestFactory
  Stream<DynamicTest> corpus() throws IOException {
    List<Path> specs;
    try (Stream<Path> s = Files.list(CORPUS)) {
      specs = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertTrue(specs.size() >= 25, "the corpus holds at least 25 hostile specs: " + specs.size());
    return specs.stream()
        .map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> one(p)));
  }

  private static void one(Path spec) {
    Cli r = Cli.run("validate", spec.toString().replace('\\', '/'));
    assertRejected(r);
    String name = spec.getFileName().toString();
    Golden.assertFile(CORPUS.resolve(name.replace(".yaml", ".txt")), r.out());
  }

  static void assertRejected(Cli r) {
    assertEquals(1, r.exit(), r.toString());
    assertTrue(POSITIONED.matcher(r.out()).find(), "a positioned error line\n" + r);
    assertFalse(r.out().contains("Exception") || r.err().contains("Exception"), r.toString());
    assertFalse(r.out().contains("\tat ") || r.err().contains("\tat "), r.toString());
    assertTrue(r.err().isEmpty(), "nothing on stderr for an invalid spec\n" + r);
  }

  @Test
  void hundredThousandDeepNestingIsRefusedBeforeComposing(@TempDir Path dir) throws IOException {
    Path spec = dir.resolve("deep.yaml");
    Files.writeString(spec, "x: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n");
    Cli r = Cli.run("validate", spec.toString());
    assertRejected(r);
    assertTrue(r.out().contains(":1:35: error[spec-too-deep]"), r.toString());
  }

  @Test
  void fiftyMegabyteScalarIsRefusedWithoutReadingIt(@TempDir Path dir) throws IOException {
    Path spec = dir.resolve("huge.yaml");
    byte[] big = new byte[50 * 1024 * 1024];
    java.util.Arrays.fill(big, (byte) 'a');
    System.arraycopy("name: ".getBytes(StandardCharsets.US_ASCII), 0, big, 0, 6);
    Files.write(spec, big);
    Cli r = Cli.run("validate", spec.toString());
    assertRejected(r);
    assertTrue(r.out().contains(":1:1: error[spec-too-large]"), r.toString());
  }

  @Test
  void justUnderTheLimitButTooManyCodePointsIsStillBounded(@TempDir Path dir) throws IOException {
    // 1 MiB of 3-byte characters: within the byte limit, parsed, rejected by the grammar.
    Path spec = dir.resolve("wide.yaml");
    Files.writeString(
        spec, "apiVersion: \"" + "€".repeat(340_000) + "\"\n", StandardCharsets.UTF_8);
    Cli r = Cli.run("validate", spec.toString());
    assertRejected(r);
    assertTrue(r.out().contains("error[spec-enum]"), r.toString());
  }

  @Test
  void byteOrderMarkAndCrlfAreAccepted(@TempDir Path dir) throws IOException {
    String base = Files.readString(Path.of("src/test/resources/diagnostics/spec-range/clean.yaml"));
    Path spec = dir.resolve("windows.yaml");
    Files.writeString(spec, "\uFEFF" + base.replace("\n", "\r\n"), StandardCharsets.UTF_8);
    Cli r = Cli.run("validate", spec.toString());
    assertEquals(0, r.exit(), r.toString());
  }
}
