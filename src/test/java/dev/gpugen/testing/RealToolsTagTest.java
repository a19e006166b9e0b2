package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The fast suite (-Pfast) calls no external program: every process a test starts goes through
 * {@link RealTools#start}, which refuses callers outside {@link RealToolsTest}.
 */
class RealToolsTagTest {
  private static final Path TESTS = Path.of("src/test/java");

  @Test
  void startingAProgramOutsideARealToolsTestFailsBeforeTheProgramRuns() throws IOException {
    Path marker = Files.createTempFile("gpugen-guard", ".txt");
    Files.delete(marker);
    ProcessBuilder touch = new ProcessBuilder("touch", marker.toString());
    AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> RealTools.start(touch));
    assertTrue(e.getMessage().contains("not annotated @RealToolsTest"), e.getMessage());
    assertTrue(Files.notExists(marker), "the program never started");
  }

  /**
   * Tags follow cost: a tools test that is not tagged for terraform, ansible-lint or a chroot root
   * cannot start them, so -Dgroups=terraform (or lint, chroot) selects every test that does.
   */
  @RealToolsTest
  @Test
  void aCostlyProgramOutsideATestTaggedForItFailsBeforeItRuns() {
    for (String program : List.of("terraform", "ansible-lint", "chroot", "unshare")) {
      ProcessBuilder pb = new ProcessBuilder(program, "--version");
      AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> RealTools.start(pb));
      assertTrue(
          e.getMessage().contains("is not tagged \"" + RealTools.COSTLY.get(program) + "\""),
          e.getMessage());
    }
    AssertionFailedError e =
        assertThrows(
            AssertionFailedError.class, () -> TestRoot.fresh(Path.of("/nonexistent/root")));
    assertTrue(e.getMessage().contains("annotate it @ChrootTest"), e.getMessage());
  }

  @Test
  void testsStartProgramsOnlyThroughRealTools() throws IOException {
    List<String> offenders;
    try (Stream<Path> files = Files.walk(TESTS)) {
      offenders =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> !p.endsWith("testing/RealTools.java"))
              .filter(p -> !p.endsWith("testing/RealToolsTagTest.java")) // the patterns below
              .filter(RealToolsTagTest::startsAProcessItself)
              .map(Path::toString)
              .sorted()
              .toList();
    }
    assertEquals(List.of(), offenders, "start processes with RealTools.start(ProcessBuilder)");
  }

  /** {@code new ProcessBuilder(..)...start()}, {@code pb.start()} or {@code Runtime...exec}. */
  private static boolean startsAProcessItself(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (text.contains("Runtime.getRuntime().exec")) {
      return true;
    }
    Matcher chained = CHAINED.matcher(text);
    while (chained.find()) {
      if (!BASE_UTILITY.matcher(chained.group(1)).matches()) {
        return true;
      }
    }
    Matcher declared = DECLARED.matcher(text);
    while (declared.find()) {
      if (Pattern.compile("\\b" + declared.group(1) + "\\s*\\.start\\(").matcher(text).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fixtures from coreutils, part of every Debian base system (a dead pid, a FIFO), not tools: a
   * test may start them directly and stay in the fast suite.
   */
  private static final Pattern BASE_UTILITY = Pattern.compile("\"(true|mkfifo)\"(,.*)?");

  private static final Pattern CHAINED =
      Pattern.compile(
          "new ProcessBuilder\\(([^;]*?)\\)\\s*(\\.\\w+\\([^;]*?\\)\\s*)*\\.start\\(\\)");
  private static final Pattern DECLARED = Pattern.compile("ProcessBuilder\\s+(\\w+)\\s*=");
}
