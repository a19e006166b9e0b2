package dev.gpugen.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/ARCHITECTURE.md's rule about errors, checked on the sources. */
class FailureRulesTest {
  private static final Path MAIN = Path.of("src/main/java/dev/gpugen");

  /**
   * Exception classes that are not failures: package-private signals that never leave their
   * package, each translated into a {@link Failure} where it is caught. The AWS SDK carries the
   * first two through its own exceptions (a credentials provider and a response stream may throw
   * only what the SDK wraps); the last two are I/O conditions their caller turns into a message.
   */
  private static final Map<String, String> SIGNALS =
      Map.of(
          "inventory/CredentialChain.java", "MissingCredentialsException",
          "inventory/ResponseLimit.java", "TooLargeException",
          "inventory/BoundedFiles.java", "NotAFileException",
          "spec/yaml/SafeYaml.java", "BadEncoding");

  @Test
  void noPackageBelowTheCliImportsIt() throws IOException {
    List<String> offenders = new ArrayList<>();
    for (Path f : sources()) {
      if (!f.startsWith(MAIN.resolve("cli"))
          && Files.readString(f).contains("import dev.gpugen.cli")) {
        offenders.add(f.toString());
      }
    }
    assertEquals(List.of(), offenders);
  }

  @Test
  void theOnlyExceptionsAreFailuresAndThePackagePrivateSignals() throws IOException {
    Pattern declared =
        Pattern.compile("(\\w*) class (\\w+) extends (\\w*(Exception|Error|Throwable))\\b");
    List<String> offenders = new ArrayList<>();
    for (Path f : sources()) {
      if (f.startsWith(MAIN.resolve("failure"))) {
        continue;
      }
      Matcher m = declared.matcher(Files.readString(f));
      while (m.find()) {
        String rel = MAIN.relativize(f).toString();
        boolean signal = m.group(2).equals(SIGNALS.get(rel)) && !m.group(0).contains("public");
        if (!signal) {
          offenders.add(rel + ": " + m.group(0));
        }
      }
    }
    assertEquals(List.of(), offenders);
  }

  @Test
  void prefixedKeepsTheKindAndTheUsageAndChainsTheOriginal() {
    InvalidInput usage = InvalidInput.usage("unknown rule");
    InvalidInput p = usage.prefixed("--skip-rule x: ");
    assertEquals("--skip-rule x: unknown rule", p.getMessage());
    assertTrue(p.usage());
    assertSame(usage, p.getCause());
    for (Failure f :
        List.of(
            new InvalidInput("a"), new EnvironmentFailure("b"), new InternalFailure("c"), usage)) {
      assertEquals(f.kind(), f.prefixed("x: ").kind());
      assertEquals(f.getClass(), f.prefixed("x: ").getClass());
    }
  }

  private static List<Path> sources() throws IOException {
    try (Stream<Path> s = Files.walk(MAIN)) {
      return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }
}
