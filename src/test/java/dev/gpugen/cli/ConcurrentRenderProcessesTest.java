package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole {@code gpugen render} processes racing: two into one folder (with different specs, so with
 * {@code --force}: a folder belongs to the spec that rendered it) and two into sibling folders of
 * the same parent, started together, round after round. Separate JVMs take the OS lock on the
 * folder for real (threads of one JVM only meet the in-process lock). Every run succeeds, the
 * shared folder holds exactly one spec's complete render, no staging or lock file is left, and a
 * folder beside them is unchanged.
 */
@RealToolsTest
class ConcurrentRenderProcessesTest {
  private static final String A = "examples/aws-h100/cluster.yaml";
  private static final String B = "examples/static-baremetal/cluster.yaml";

  @TempDir Path tmp;

  private Process render(String spec, Path out, Path log) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.gpugen.cli.Main",
                "render",
                spec,
                "-o",
                out.toString(),
                "--force")
            .directory(RealTools.repoRoot().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    return RealTools.start(pb);
  }

  @Test
  void rendersInSeparateProcessesNeverBreakEachOther() throws Exception {
    Path parent = Files.createDirectories(tmp.resolve("parent"));
    Path victim = Files.createDirectories(tmp.resolve("victim"));
    Files.writeString(victim.resolve("precious.txt"), "AWS_SECRET=precious\n");
    String victimBefore = HostileInputCliTest.hashTree(victim);
    Path shared = parent.resolve("out");
    for (int round = 0; round < 3; round++) {
      List<Process> runs = new ArrayList<>();
      List<Path> logs = new ArrayList<>();
      String[][] jobs = {
        {A, "out"}, {B, "out"}, {A, "out-a"}, {B, "out-b"},
      };
      for (int i = 0; i < jobs.length; i++) {
        Path log = tmp.resolve("log-" + round + "-" + i);
        logs.add(log);
        runs.add(render(jobs[i][0], parent.resolve(jobs[i][1]), log));
      }
      for (int i = 0; i < runs.size(); i++) {
        Process p = runs.get(i);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "render " + i + " of round " + round + " hung");
        assertEquals(
            0,
            p.exitValue(),
            "round "
                + round
                + ", "
                + String.join(" ", jobs[i])
                + ":\n"
                + Files.readString(logs.get(i)));
      }
      // The shared folder is one spec's whole render: --check passes for exactly one of them.
      int matches = 0;
      for (String spec : List.of(A, B)) {
        Path log = tmp.resolve("check-" + round);
        Process check =
            RealTools.start(
                new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.gpugen.cli.Main",
                        "render",
                        spec,
                        "-o",
                        shared.toString(),
                        "--check",
                        "--force")
                    .directory(RealTools.repoRoot().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile()));
        assertTrue(check.waitFor(5, TimeUnit.MINUTES));
        matches += check.exitValue() == 0 ? 1 : 0;
      }
      assertEquals(1, matches, "round " + round + ": the shared folder is one spec's render");
      try (Stream<Path> s = Files.list(parent)) {
        assertEquals(
            List.of("out", "out-a", "out-b"),
            s.map(p -> p.getFileName().toString()).sorted().toList(),
            "no staging folder or lock file left");
      }
    }
    assertEquals(victimBefore, HostileInputCliTest.hashTree(victim), "the folder beside unchanged");
  }
}
