package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./gpugen} launcher script, run by a real POSIX shell. */
@RealToolsTest
class LauncherTest {
  @TempDir Path tmp;

  /** A PATH with the tools the launcher needs before it looks for java, and no java. */
  @Test
  void withoutJavaOnThePathItSaysWhatToInstall() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path dirname = Files.copy(Path.of("/usr/bin/dirname"), bin.resolve("dirname"));
    assertTrue(dirname.toFile().setExecutable(true));
    RealTools.Result r =
        RealTools.run(
            tmp,
            Duration.ofSeconds(30),
            Map.of("PATH", bin.toString(), "GPUGEN_JAR", ""),
            "/bin/sh",
            RealTools.repoRoot().resolve("gpugen").toString(),
            "--version");
    assertEquals(3, r.exitCode(), r.output());
    assertEquals("gpugen needs a JDK 17 or newer (java not found on PATH)\n", r.output());
  }
}
