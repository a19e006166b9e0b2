package dev.gpugen.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * What each test class cost: wall time and the CPU time of the test JVM and of every program it
 * started and waited for (terraform, ansible-playbook and their children), one tab-separated line
 * per class in {@code target/test-costs/<pid>.tsv}. A class whose CPU time is far below its wall
 * time waits (the AWS provider's polling, a deadline); one near or above it is bound by the two
 * cores. {@code scripts/test-costs} sums and sorts the files of a run.
 *
 * <p>Read from {@code /proc/self/stat} (utime, stime, cutime, cstime: proc(5)); registered through
 * {@code META-INF/services}, so every JUnit run of this module records its costs.
 */
public final class TestCosts implements TestExecutionListener {
  private static final Path DIR = Path.of("target", "test-costs");

  private record Start(long nanos, long ticks) {}

  private final Map<String, Start> started = new ConcurrentHashMap<>();

  @Override
  public void executionStarted(TestIdentifier id) {
    if (className(id) != null) {
      started.put(id.getUniqueId(), new Start(System.nanoTime(), cpuTicks()));
    }
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    String name = className(id);
    Start s = started.remove(id.getUniqueId());
    if (name == null || s == null) {
      return;
    }
    long ticks = cpuTicks();
    double wall = (System.nanoTime() - s.nanos()) / 1e9;
    // USER_HZ is 100 on every Linux architecture Java runs on (proc(5), sysconf(_SC_CLK_TCK)).
    double cpu = ticks < 0 || s.ticks() < 0 ? -1 : (ticks - s.ticks()) / 100.0;
    String line = String.format("%s\t%.1f\t%.1f\t%s%n", name, wall, cpu, result.getStatus());
    try {
      Files.createDirectories(DIR);
      Files.writeString(
          DIR.resolve(ProcessHandle.current().pid() + ".tsv"),
          line,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      // A cost that cannot be written must not fail or hide the test's own result.
      System.err.println("test costs: " + e);
    }
  }

  private static String className(TestIdentifier id) {
    return id.isContainer()
            && id.getSource().orElse(null) instanceof ClassSource c
            && !c.getClassName().contains("$")
        ? c.getClassName()
        : null;
  }

  /** utime + stime + cutime + cstime of this JVM in clock ticks, or -1 off Linux. */
  static long cpuTicks() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      // Fields after the command name, which is in parentheses and may hold spaces.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // f[0] is field 3 (state): utime..cstime are fields 14..17.
      return Long.parseLong(f[11])
          + Long.parseLong(f[12])
          + Long.parseLong(f[13])
          + Long.parseLong(f[14]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
